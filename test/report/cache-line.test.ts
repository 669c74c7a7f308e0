import { describe, expect, it } from 'vitest';
import { summarizeCache } from '../../src/core/cache-summary.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { cacheHtml, renderCacheCounts, renderCacheLine } from '../../src/report/cache-line.ts';
import { renderEstimateLine } from '../../src/report/estimate-line.ts';
import { renderReport } from '../../src/report/report-formats.ts';
import { snapshotFixture } from './fixture.ts';

const ESTIMATE = { calls: 12, inputTokens: 1200, outputTokens: 240, costUsd: 0.026 };

/** The fixture with alpha's results answered from the cache, and `skipped` of beta's cases skipped by --cache-only. */
function cachedFixture(skipped = 0): Snapshot {
  const s = snapshotFixture();
  const alpha = new Set(s.experiments.filter((e) => e.contender.includes('fake/alpha')).map((e) => e.id));
  const beta = new Set(s.experiments.filter((e) => e.contender.includes('fake/beta')).map((e) => e.id));
  let left = skipped;
  const results = s.results.map((r) => {
    if (alpha.has(r.experimentId)) return { ...r, cached: { replies: 1, calls: 0, paidUsd: 0 } };
    if (beta.has(r.experimentId) && left > 0) {
      left--;
      return { ...r, status: 'error' as const, skipped: true as const };
    }
    return r;
  });
  const cache = summarizeCache(s.experiments, results);
  return { ...s, results: results.filter((r) => !r.skipped), ...(cache ? { cache } : {}) };
}

describe('the reply cache in the reports', () => {
  it('says nothing for a run that took nothing from the cache', () => {
    const s = snapshotFixture();
    expect(renderCacheLine(s)).toBe('');
    expect(renderCacheCounts(s)).toBe('');
    expect(renderReport('tui', s)).not.toContain('from the cache');
  });

  it.each<[number, string]>([
    [
      0,
      '4 of 12 replies from the cache: this run paid $0.0080, the replies cost $0.02 when they were called (saved $0.02); --no-cache calls them again',
    ],
    [
      2,
      '4 of 10 replies from the cache: this run paid $0.0040, the replies cost $0.02 when they were called (saved $0.02); --no-cache calls them again; 2 cases skipped: no reply in the cache (--cache-only)',
    ],
  ])('with %i skipped: %s', (skipped, line) => {
    expect(renderCacheLine(cachedFixture(skipped))).toBe(line);
  });

  it('a run answered wholly from the cache paid $0 now, and says what the replies cost when called', () => {
    const s = snapshotFixture();
    const results = s.results.map((r) => ({ ...r, cached: { replies: 1, calls: 0, paidUsd: 0 } }));
    const cached = { ...s, results, cache: summarizeCache(s.experiments, results)! };
    expect(renderCacheLine(cached)).toBe(
      '12 of 12 replies from the cache: this run paid $0.0000, the replies cost $0.02 when they were called (saved $0.02); --no-cache calls them again',
    );
    expect(renderEstimateLine({ ...cached, estimate: ESTIMATE })).toContain('$0.0000 vs $0.0260');
  });

  it('without prices says the cost and the saving are unknown, not $0', () => {
    const s = snapshotFixture();
    const unknown = { inputTokens: 10, outputTokens: 5, costUsd: null };
    const results = s.results.map((r) => ({
      ...r,
      usage: unknown,
      cached: { replies: 1, calls: 0, paidUsd: 0 },
    }));
    const cached = { ...s, results, cache: summarizeCache(s.experiments, results)! };
    expect(renderCacheLine(cached)).toBe(
      '12 of 12 replies from the cache: no reply has a price, so what it cost and saved is unknown; --no-cache calls them again',
    );
    expect(renderEstimateLine({ ...cached, estimate: ESTIMATE })).toContain('? vs $0.0260');
  });

  it('counts per contender in the TUI', () => {
    const s = cachedFixture(1);
    expect(renderReport('tui', s)).toContain(
      'from the cache: fake/alpha t=0.1 4 of 4, fake/beta effort=low t=0.1 0 of 3 (1 skipped), other/gamma 0 of 4',
    );
  });

  it('gives the HTML report a section with each contender’s counts and cost paid, escaped', () => {
    const html = renderReport('html', cachedFixture(1));
    expect(html).toContain('<section id="cache">');
    expect(cacheHtml(cachedFixture(1))).toContain(
      '<tr><td>fake/alpha t=0.1</td><td>4</td><td>4</td><td>0</td><td>$0.0000</td><td>$0.0160</td></tr>',
    );
    expect(renderReport('html', snapshotFixture())).not.toContain('<section id="cache">');
  });
});
