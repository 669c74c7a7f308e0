import { describe, expect, it } from 'vitest';
import { ResultSharing, type CaseResult } from '../../src/core/results.ts';

/** A result as JSON decodes it: every part its own object. */
function decoded(metrics: CaseResult['metrics'], extra: Partial<CaseResult> = {}): CaseResult {
  return JSON.parse(
    JSON.stringify({
      experimentId: 'e1',
      caseKey: 'd/v/1',
      status: 'scored',
      score: 1,
      metrics,
      outcomes: {},
      diagnostics: {},
      usage: { inputTokens: 3, outputTokens: 2, costUsd: 0.001 },
      latency: 0.1,
      duration: 0.1,
      startedAt: '2026-12-03T00:00:00.000Z',
      finishedAt: '2026-12-03T00:00:00.100Z',
      attempts: 1,
      ...extra,
    }),
  ) as CaseResult;
}

describe('ResultSharing', () => {
  it('gives equal metrics and empty outcomes and diagnostics one frozen record each', () => {
    const sharing = new ResultSharing();
    const [a, b, c] = [decoded({ exact: 1 }), decoded({ exact: 1 }), decoded({ exact: 0 })].map((r) =>
      sharing.share(r),
    );
    expect(b!.metrics).toBe(a!.metrics);
    expect(c!.metrics).not.toBe(a!.metrics);
    expect(c!.metrics).toEqual({ exact: 0 });
    expect(b!.outcomes).toBe(a!.outcomes);
    expect(b!.diagnostics).toBe(a!.outcomes);
    for (const part of [a!.metrics, a!.outcomes]) expect(Object.isFrozen(part)).toBe(true);
    // Shared, it reads as it did: the same JSON.
    expect(JSON.stringify(b)).toBe(JSON.stringify(decoded({ exact: 1 })));
  });

  it.each<[string, Partial<CaseResult>]>([
    ['outcomes', { outcomes: { format: 1 } }],
    ['diagnostics', { diagnostics: { why: 'x' } }],
  ])('leaves non-empty %s as they are', (part, extra) => {
    const result = decoded({ exact: 1 }, extra);
    const own = result[part as 'outcomes' | 'diagnostics'];
    expect(new ResultSharing().share(result)[part as 'outcomes' | 'diagnostics']).toBe(own);
    expect(Object.isFrozen(own)).toBe(false);
  });

  it('keeps at most 1,000 sets of metric values: a continuous score is left unshared past them', () => {
    const sharing = new ResultSharing();
    for (let i = 0; i < 1_000; i++) sharing.share(decoded({ similarity: i / 1_000 }));
    const past = sharing.share(decoded({ similarity: 0.5005 }));
    expect(sharing.share(decoded({ similarity: 0.5005 })).metrics).not.toBe(past.metrics);
    expect(Object.isFrozen(past.metrics)).toBe(false);
    // A set seen before the limit is still shared.
    expect(sharing.share(decoded({ similarity: 0.001 })).metrics).toBe(
      sharing.share(decoded({ similarity: 0.001 })).metrics,
    );
  });

  it('gives equal usages one frozen record and equal experiment ids one string, and leaves others their own', () => {
    const sharing = new ResultSharing();
    const a = sharing.share(decoded({ exact: 1 }));
    const b = sharing.share(decoded({ exact: 1 }));
    const c = sharing.share(
      decoded({ exact: 1 }, { usage: { inputTokens: 4, outputTokens: 2, costUsd: 0.001 } }),
    );
    expect(b.usage).toBe(a.usage);
    expect(Object.isFrozen(a.usage)).toBe(true);
    expect(c.usage).not.toBe(a.usage);
    expect(c.usage).toEqual({ inputTokens: 4, outputTokens: 2, costUsd: 0.001 });
    expect(sharing.share(decoded({ exact: 1 }, { experimentId: 'e2' })).experimentId).toBe('e2');
    expect(JSON.stringify(b)).toBe(JSON.stringify(decoded({ exact: 1 })));
  });

  // One string for equal times is not seen from JavaScript (strings compare by value); what a test can hold is that
  // no time changes, whichever time seen before it equals. The memory is benched.
  it.each<[string, Partial<CaseResult>]>([
    ['started together', { finishedAt: '2026-12-03T00:00:00.200Z' }],
    ['ended together', { startedAt: '2026-12-03T00:00:00.050Z' }],
    [
      'one starting as the other ended',
      { startedAt: '2026-12-03T00:00:00.100Z', finishedAt: '2026-12-03T00:00:00.300Z' },
    ],
    [
      'one ending as the other started',
      { startedAt: '2026-12-02T23:59:59.000Z', finishedAt: '2026-12-03T00:00:00.000Z' },
    ],
    ['apart', { startedAt: '2026-12-03T00:00:01.000Z', finishedAt: '2026-12-03T00:00:01.100Z' }],
  ])('keeps the times of results %s as they were', (_, times) => {
    const sharing = new ResultSharing();
    sharing.share(decoded({ exact: 1 }));
    const b = sharing.share(decoded({ exact: 1 }, times));
    const expected = decoded({ exact: 1 }, times);
    expect([b.startedAt, b.finishedAt]).toEqual([expected.startedAt, expected.finishedAt]);
  });
});
