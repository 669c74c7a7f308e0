import { contenderKey } from '../../src/core/matrix.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import type { TrackerContext, TrackerLog } from '../../src/trackers/types.ts';

type Result = Snapshot['results'][number];

/** A reply text no tracker may send unless the lineup says `include_replies: true`. */
export const SECRET_REPLY = 'REPLY-TEXT-7f3a';

/** A provider key in the test's env: it must never reach a tracker. */
export const FAKE_OPENROUTER_KEY = 'sk-or-v1-FAKE-0123456789abcdef';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, 0) + seconds * 1000).toISOString();

const contender = (id: string, effort: string, temperature: number | null, maxTokens: number | null) => {
  const base = { provider: 'fake', id, effort, temperature, maxTokens };
  return { ...base, key: contenderKey(base), model: id.split('/')[1]!, limits: [] };
};

/** Diagnostics far over the 4 KB a span carries. */
export const BIG_DIAGNOSTICS = {
  fields: Array.from({ length: 80 }, (_, i) => ({ field: `f${i}`, want: 'ü'.repeat(20), got: null })),
};

/**
 * A small run: two contenders over one dataset of three cases (one scored, one the model's own error with large
 * diagnostics, one transport error), with fixed times.
 */
export function trackerSnapshot(): Snapshot {
  const contenders = [
    contender('fake/alpha', 'low', 0.2, 512),
    contender('fake/beta', 'default', null, null),
  ];
  const caseKeys = ['north/clear', 'north/vague', 'north/long/001'];
  const experiments = contenders.map((c, i) => ({
    id: `00${i + 1}-north`,
    contender: c.key,
    dataset: 'north',
    caseKeys,
  }));
  const results = experiments.flatMap((e, i): Result[] => {
    const t = (s: number) => at(i * 100 + s);
    const base = { experimentId: e.id, attempts: 1, outcomes: {}, diagnostics: {} };
    return [
      {
        ...base,
        caseKey: 'north/clear',
        status: 'scored',
        score: 0.9,
        metrics: { score: 0.9, exact: 0, tokens_per_field: 12 },
        outcomes: { correct: 3, missed: 1 },
        diagnostics: { colour: { want: 'blue', got: 'teal' } },
        output: { colour: 'teal' },
        reply: `${SECRET_REPLY} {"colour":"teal"}`,
        usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.0004 },
        latency: 1.5,
        duration: 1.5,
        startedAt: t(0),
        finishedAt: t(1.5),
      },
      {
        ...base,
        caseKey: 'north/vague',
        status: 'reply_error',
        score: 0,
        metrics: { score: 0, exact: 0, tokens_per_field: null },
        diagnostics: BIG_DIAGNOSTICS,
        reply: `${SECRET_REPLY} not json`,
        error: 'the reply is not JSON',
        usage: { inputTokens: 90, outputTokens: 5, costUsd: 0.0002 },
        latency: 0.5,
        duration: 0.5,
        startedAt: t(2),
        finishedAt: t(2.5),
      },
      {
        ...base,
        caseKey: 'north/long/001',
        status: 'error',
        score: null,
        metrics: {},
        error: 'fake: 503 Service Unavailable <after 5 attempts>',
        usage: { inputTokens: null, outputTokens: null, costUsd: null },
        latency: null,
        duration: 4,
        startedAt: t(3),
        finishedAt: t(7),
        attempts: 5,
      },
    ];
  });
  return {
    version: 1,
    runId: '20261130-120000-trk1',
    suite: { name: 'toy', project: '/nowhere' },
    status: 'completed',
    createdAt: at(0),
    finishedAt: at(300),
    options: {},
    settings: { parallelism: 2, concurrency: 2 },
    contenders,
    refused: [],
    experiments,
    metrics: [
      { name: 'score', description: 'Mean worth per field.', primary: true },
      { name: 'exact', description: 'Every field right.' },
      { name: 'tokens_per_field', description: 'Not a 0..1 value.' },
    ],
    cases: caseKeys.map((key) => {
      const [dataset, variant, number] = key.split('/') as [string, string, string?];
      return {
        key,
        id: number ? `${variant}/${number}` : variant,
        dataset,
        variant,
        input: `The ${variant} case.`,
        expected: { colour: 'blue' },
        metadata: { difficulty: 'easy' },
      };
    }),
    results,
  };
}

/** A log that keeps what trackers say, for assertions. */
export function recordingLog(): TrackerLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) };
}

/** A tracker context for the fixture's suite, with the env given. */
export function contextFor(
  env: Record<string, string | undefined>,
  overrides: Partial<TrackerContext> = {},
): TrackerContext {
  return {
    suite: 'toy',
    project: 'toy-evals',
    projectDir: '/nowhere',
    config: {},
    env,
    log: recordingLog(),
    ...overrides,
  };
}
