import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffRuns, digestOf, type Trend } from '../../src/core/run-change.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { renderChange } from '../../src/report/change.ts';
import { renderReport } from '../../src/report/report-formats.ts';
import { renderHtml } from '../../src/report/html.ts';
import { trendSvg } from '../../src/report/trend-chart.ts';
import { stripAnsi } from '../../src/report/text-width.ts';
import { REPO } from '../helpers/suite-dir.ts';
import { snapshotFixture } from './fixture.ts';

/** A scheduled run's snapshot: the fixture, its change since an earlier run with lower scores, and a 4-run trend. */
function scheduledSnapshot(): Snapshot {
  const now = snapshotFixture();
  const then = snapshotFixture();
  then.runId = 'earlier';
  then.results = then.results.map((r) => ({ ...r, score: r.score === null ? null : r.score * 0.9 }));
  const [a, b, c] = now.contenders.map((x) => x.key);
  const point = (score: number | null, d = 0) => [
    { contender: a!, dataset: 'north', score: score === null ? null : score + d },
    { contender: b!, dataset: 'north', score: 0.5 + d },
    { contender: c!, dataset: 'south', score: 0.7 },
  ];
  const trend: Trend = {
    primary: 'score',
    contenders: now.contenders,
    runs: [
      { runId: 'r1', at: '2026-11-01T03:00:00.000Z', state: 'completed', scores: point(0.9) },
      { runId: 'r2', at: '2026-11-08T03:00:00.000Z', state: 'completed', scores: point(null) },
      { runId: 'r3', at: '2026-11-15T03:00:00.000Z', state: 'completed', scores: point(0.8, 0.1) },
      { runId: 'r4', at: '2026-11-22T03:00:00.000Z', state: 'regressed', scores: point(0.5) },
    ],
  };
  return {
    ...now,
    status: 'regressed',
    change: diffRuns(digestOf(then), digestOf(now)),
    regression: ['fake/alpha on north: score 90.0% → 50.0%, down 40.0 points (max drop 5)'],
    trend,
  };
}

describe('the trend picture and the change, as text (pure)', () => {
  it("breaks a series' line where a run has no score, and draws one series per contender and dataset", () => {
    const svg = trendSvg(scheduledSnapshot().trend!);
    expect(svg.match(/<g class="series/g)).toHaveLength(3);
    // alpha's line: r1, then a gap at r2, then r3 → r4: two pens down.
    const alpha = /<g class="series c0"[^]*?<\/g>/.exec(svg)![0];
    expect(alpha.match(/M/g)).toHaveLength(2);
    expect(alpha.match(/<circle/g)).toHaveLength(3);
    expect(svg).toContain('data-runs="4"');
  });

  it('the TUI report of a scheduled run ends with its change and why it regressed', () => {
    const text = stripAnsi(renderReport('tui', scheduledSnapshot(), { width: 200 }));
    expect(text).toContain('change since earlier');
    expect(text).toMatch(/regressed:\n {2}fake\/alpha on north/);
    expect(stripAnsi(renderChange(scheduledSnapshot().change!))).toContain('same contenders and cases');
  });
});

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`test/report/trend.test.ts: ${CHROMIUM} is absent; apt-get install -y chromium to run it`);

describe.skipIf(!present)('the trend picture in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'llm-evals-trend-'));
  const problems: string[] = [];
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(scheduledSnapshot()));
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
      viewport: { width: 1280, height: 900 },
    });
    page = await context.newPage();
    page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) =>
      r.url().startsWith('file:') ? undefined : problems.push(`network: ${r.url()}`),
    );
    await page.goto(pathToFileURL(file).href);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws each series as a visible line across the runs, with no console error and no network', async () => {
    const svg = page.locator('#trend svg.trend');
    expect(await svg.isVisible()).toBe(true);
    const box = await svg.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    const lines = page.locator('#trend path.trend-line');
    expect(await lines.count()).toBe(3);
    for (let i = 0; i < 3; i++) {
      const length = await lines.nth(i).evaluate((p: { getTotalLength(): number }) => p.getTotalLength());
      expect(length).toBeGreaterThan(50);
      const stroke = await lines
        .nth(i)
        .evaluate(
          (p: { ownerDocument: { defaultView: { getComputedStyle(e: unknown): { stroke: string } } } }) =>
            p.ownerDocument.defaultView.getComputedStyle(p).stroke,
        );
      expect(stroke).not.toBe('none');
    }
    // Higher scores sit higher: alpha's 90% at r1 is above its 50% at r4.
    const ys = await page
      .locator('#trend g.series.c0 circle')
      .evaluateAll((cs: { getAttribute(name: string): string | null }[]) =>
        cs.map((c) => Number(c.getAttribute('cy'))),
      );
    expect(ys[0]).toBeLessThan(ys[2]!);
    expect(await page.locator('#change table.change tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#change .banner.regressed').textContent()).toContain('down 40.0 points');
    mkdirSync(join(REPO, 'test-artifacts'), { recursive: true });
    await page.locator('#trend').screenshot({ path: join(REPO, 'test-artifacts/trend.png') });
    expect(problems).toEqual([]);
  });
});
