import { describe, expect, it } from 'vitest';
import { canRescore, rescoreSnapshot, SCORER_FAILED, type Verdict } from '../../src/core/rescore.ts';
import type { CaseResult } from '../../src/core/results.ts';
import { snapshotFixture } from '../report/fixture.ts';

const base: CaseResult = {
  experimentId: 'e',
  caseKey: 'k',
  status: 'scored',
  score: 0.5,
  metrics: {},
  outcomes: {},
  diagnostics: {},
  usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.1 },
  latency: 1,
  duration: 1,
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: '2026-01-01T00:00:01Z',
  attempts: 1,
};

describe('rescore', () => {
  it.each<[string, Partial<CaseResult>, boolean]>([
    ['a scored case', {}, true],
    ['a reply the adapter marked failed', { status: 'reply_error', score: 0 }, true],
    ['a transport error', { status: 'error', score: null, error: 'HTTP 500' }, false],
    ['a scorer failure', { status: 'error', score: null, error: `${SCORER_FAILED}boom` }, true],
  ])('canRescore: %s', (_, fields, want) => {
    expect(canRescore({ ...base, ...fields })).toBe(want);
  });

  it.each<[string, Verdict, Partial<CaseResult>]>([
    ['a new score', { value: 1, metrics: { m: 1 } }, { status: 'scored', score: 1, metrics: { m: 1 } }],
    ['a failing scorer', { failed: 'boom' }, { status: 'error', score: null, error: `${SCORER_FAILED}boom` }],
  ])('rescoreSnapshot with %s keeps usage and timings, names the original', (_, verdict, want) => {
    const original = snapshotFixture();
    const graded: string[] = [];
    const rescored = rescoreSnapshot(original, {
      runId: 'new',
      rescoreOf: { runId: original.runId, rescoredAt: '2026-02-02T00:00:00Z' },
      metrics: [{ name: 'm', description: 'a metric', primary: true }],
      cases: original.cases,
      grade: (kase) => {
        graded.push(kase.key);
        return verdict;
      },
    });
    expect(rescored.runId).toBe('new');
    expect(rescored.rescoreOf?.runId).toBe(original.runId);
    expect(rescored.metrics.map((m) => m.name)).toEqual(['m']);
    expect(rescored.weights).toBeUndefined();
    const regradable = original.results.filter(canRescore);
    expect(graded).toHaveLength(regradable.length);
    original.results.forEach((r, i) => {
      const now = rescored.results[i]!;
      expect(now.usage).toEqual(r.usage);
      expect(now.duration).toBe(r.duration);
      if (r.status === 'reply_error')
        expect(now).toMatchObject(
          'failed' in verdict ? want : { status: 'reply_error', score: 0, metrics: { m: 1 } },
        );
      else if (canRescore(r)) expect(now).toMatchObject(want);
      else expect(now).toEqual(r);
    });
  });
});
