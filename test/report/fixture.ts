import { contenderKey } from '../../src/core/matrix.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';

type Result = Snapshot['results'][number];

/** A reply that would run script if a report ever let it through as markup. */
export const HOSTILE_REPLY = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

const contender = (provider: string, id: string, effort: string, temperature: number | null) => {
  const base = { provider, id, effort, temperature, maxTokens: null };
  return { ...base, key: contenderKey(base), model: id.split('/')[1]!, limits: [] };
};

const CONTENDERS = [
  contender('fake', 'fake/alpha', 'default', 0.1),
  contender('fake', 'fake/beta', 'low', 0.1),
  contender('other', 'other/gamma', 'default', null),
];

const CASES = ['north/clear', 'north/vague', 'south/clear', 'south/vague'];

/**
 * Per contender, per case: [score, exact, cost, latency, status]. North: alpha best, gamma (cheapest, within 2
 * points) best value. South: beta tops the scores but its call failed once, so gamma is named best.
 */
const TABLE: Record<string, [number | null, number, number, number, Result['status']?][]> = {
  'fake/alpha': [
    [1, 1, 0.004, 2],
    [0.9, 0, 0.004, 2],
    [0.8, 0, 0.004, 2],
    [0.8, 0, 0.004, 2],
  ],
  'fake/beta': [
    [0.9, 0, 0.002, 1],
    [0.9, 0, 0.002, 1],
    [1, 1, 0.002, 1],
    [null, 0, 0.002, 1, 'error'],
  ],
  'other/gamma': [
    [0.97, 0, 0.0005, 0.5],
    [0.9, 0, 0.0005, 0.5],
    [0.9, 0, 0.0005, 0.5],
    [0.9, 0, 0.0005, 0.5],
  ],
};

const base = (experimentId: string, caseKey: string) => ({
  experimentId,
  caseKey,
  outcomes: {},
  diagnostics: {},
  attempts: 1,
});

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, 0) + seconds * 1000).toISOString();

/** A small finished run: 3 contenders × 2 datasets × 2 variants, fixed times, one hostile reply, one reply error. */
export function snapshotFixture(weights?: Record<string, number>): Snapshot {
  const experiments = ['north', 'south'].flatMap((dataset, d) =>
    CONTENDERS.map((c, i) => ({
      id: `00${d * 3 + i + 1}-${dataset}`,
      contender: c.key,
      dataset,
      caseKeys: CASES.filter((k) => k.startsWith(`${dataset}/`)),
    })),
  );
  const results: Result[] = experiments.flatMap((e) => {
    const c = CONTENDERS.find((x) => x.key === e.contender)!;
    return e.caseKeys.map((caseKey): Result => {
      const [score, exact, costUsd, latency, status = 'scored'] = TABLE[c.id]![CASES.indexOf(caseKey)]!;
      const start = CASES.indexOf(caseKey) * 10;
      const hostile = c.id === 'fake/alpha' && caseKey === 'north/vague';
      if (status === 'error') {
        const error = 'beta: 503 Service Unavailable <after 5 attempts>';
        const usage = { inputTokens: null, outputTokens: null, costUsd: null };
        const times = {
          latency: null,
          duration: latency,
          startedAt: at(start),
          finishedAt: at(start + latency),
        };
        return { ...base(e.id, caseKey), status, score: null, metrics: {}, error, usage, ...times };
      }
      return {
        ...base(e.id, caseKey),
        status,
        score,
        metrics: { score, exact },
        outcomes: { correct: exact ? 2 : 1, hallucinated: exact ? 0 : 1 },
        diagnostics: exact ? {} : { colour: { outcome: 'hallucinated', want: null, got: '<b>red</b>' } },
        reply: hostile ? HOSTILE_REPLY : JSON.stringify({ colour: 'blue' }),
        usage: { inputTokens: 100, outputTokens: 20, costUsd },
        latency,
        duration: latency,
        startedAt: at(start),
        finishedAt: at(start + latency),
      };
    });
  });
  return {
    version: 1,
    runId: '20261130-120000-test',
    suite: { name: 'fixture <suite>', description: 'A run made up for tests.', project: '/nowhere' },
    status: 'completed',
    createdAt: at(0),
    finishedAt: at(60),
    options: { open: false, totals: 'both' },
    settings: { parallelism: 2, concurrency: 4 },
    contenders: CONTENDERS,
    refused: [],
    experiments,
    metrics: [
      { name: 'score', description: 'Mean worth per field.', primary: true },
      { name: 'exact', description: 'Every field right.' },
    ],
    ...(weights ? { weights } : {}),
    cases: CASES.map((key) => {
      const [dataset, variant] = key.split('/') as [string, string];
      const input =
        key === 'north/vague' ? 'It might be <blue>, or "teal" & more.' : `The ${variant} ${dataset} case.`;
      return { key, id: variant, dataset, variant, input, expected: { colour: 'blue' }, metadata: {} };
    }),
    results,
  };
}
