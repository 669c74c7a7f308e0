import { contenderKey, repeatContenders, withoutRepeat } from '../../src/core/matrix.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { FIELD_METRICS } from '../../src/scorers/field-scorer.ts';

type Result = Snapshot['results'][number];

/** Real-looking OpenRouter ids, long ones included, since the widest id decides how wide a table gets. */
const IDS = [
  'anthropic/claude-sonnet-4.5',
  'openai/gpt-5-mini',
  'google/gemini-2.5-flash-lite-preview-09-2025',
  'meta-llama/llama-4-maverick',
  'mistralai/mistral-small-3.2-24b-instruct',
  'qwen/qwen3-235b-a22b-thinking-2507',
  'deepseek/deepseek-chat-v3.1',
  'x-ai/grok-4-fast',
];
const EFFORTS = ['default', 'low', 'high'];

/** What a crowd holds besides its contenders: repeats, weights, a reply that always fails, twins at one point. */
export interface CrowdOptions {
  repeat?: number;
  weights?: Record<string, number>;
  /** The last contender's every reply fails fast (`not JSON`), as a rude model's does. */
  rude?: boolean;
  /** The first two contenders score and cost the same on every case: they sit on one point of a chart. */
  twins?: boolean;
}

/**
 * A finished run of `count` contenders × 2 datasets × 3 cases with the field scorer's metrics, scores and costs
 * spread so ranks, costs and latencies differ; for looking at (and measuring) a report as a crowd fills it.
 */
export function crowdSnapshot(count: number, options: CrowdOptions = {}): Snapshot {
  const bases = Array.from({ length: count }, (_, i) => {
    const id = i < IDS.length ? IDS[i]! : `${IDS[i % IDS.length]!}-v${Math.floor(i / IDS.length) + 1}`;
    const base = {
      provider: 'openrouter',
      id,
      effort: EFFORTS[i % 3]!,
      temperature: i % 4 === 1 ? 0.7 : null,
      maxTokens: i % 5 === 4 ? 4096 : null,
    };
    return { ...base, key: contenderKey(base), model: id, limits: [] };
  });
  const contenders = repeatContenders(bases, options.repeat);
  const datasets = ['invoices', 'receipts'];
  const cases = datasets.flatMap((dataset) =>
    ['clear', 'vague', 'noisy'].map((variant) => ({
      key: `${dataset}/${variant}/001`,
      id: `${variant}/001`,
      dataset,
      variant,
      input: `A ${variant} ${dataset} case.`,
      expected: { total: 1 },
      metadata: {},
    })),
  );
  const experiments = datasets.flatMap((dataset) =>
    contenders.map((c) => ({
      contender: c.key,
      dataset,
      caseKeys: cases.filter((k) => k.dataset === dataset).map((k) => k.key),
    })),
  );
  const planned = experiments.map((e, i) => ({ ...e, id: `${String(i + 1).padStart(3, '0')}-${e.dataset}` }));
  const at = (s: number) => new Date(Date.UTC(2026, 11, 2, 10, 0, 0) + s * 1000).toISOString();
  const results: Result[] = planned.flatMap((e) => {
    const c = contenders.find((x) => x.key === e.contender)!;
    const i = bases.findIndex((b) => b.key === contenderKey(c));
    const twin = options.twins && i < 2 ? 0 : i;
    const rude = options.rude && i === count - 1;
    return e.caseKeys.map((caseKey, k): Result => {
      const jitter = ((c.repeat ?? 1) - 2) * 0.01 * ((twin % 3) + 1);
      const score = rude ? 0 : Math.min(1, Math.max(0, 0.97 - twin * 0.023 - k * 0.01 + jitter));
      const latency = rude ? 0.05 : 0.8 + ((twin * 7) % 11) * 0.6 + k * 0.1;
      const metrics = rude
        ? { score: 0, exact: 0, hallucinated_rate: null, invalid_rate: 1 }
        : { score, exact: score > 0.9 ? 1 : 0, hallucinated_rate: 0.02 * (twin % 5), invalid_rate: 0 };
      return {
        experimentId: e.id,
        caseKey,
        status: rude ? 'reply_error' : 'scored',
        score,
        metrics,
        outcomes: {},
        diagnostics: {},
        ...(rude ? { error: 'not JSON: <html>' } : {}),
        reply: rude ? '<html>' : '{"total": 1}',
        usage: { inputTokens: 1200, outputTokens: 300, costUsd: 0.0004 * (1 + ((twin * 5) % 13)) },
        latency,
        duration: latency,
        startedAt: at(k * 3),
        finishedAt: at(k * 3 + latency),
        attempts: 1,
      };
    });
  });
  return {
    version: 1,
    runId: `20261202-100000-crowd${count}`,
    suite: { name: `crowd of ${count}`, project: '/nowhere' },
    status: 'completed',
    createdAt: at(0),
    finishedAt: at(60),
    options: {},
    settings: { parallelism: 4, concurrency: 8, ...(options.repeat ? { repeat: options.repeat } : {}) },
    contenders,
    refused: [],
    experiments: planned,
    metrics: FIELD_METRICS.map((m) => ({ ...m })),
    ...(options.weights ? { weights: options.weights } : {}),
    cases,
    results,
  };
}

/**
 * A schedule's trend over `runs` runs of the crowd's contenders on both datasets, with what once made it unreadable:
 * the first two at 100 % on both datasets (oracles), the third at 0 %, the last with no score at all (`down`), and
 * the last two runs in the same minute.
 */
export function crowdTrend(snapshot: Snapshot, runs = 5): NonNullable<Snapshot['trend']> {
  const bases = snapshot.contenders
    .filter((c) => (c.repeat ?? 1) === 1)
    .map((c) => (c.repeat ? withoutRepeat(c) : c));
  const datasets = [...new Set(snapshot.experiments.map((e) => e.dataset))];
  const at = (i: number) =>
    i < runs - 1
      ? new Date(Date.UTC(2026, 11, 2, 10, 29) - (runs - 2 - i) * 86_400_000).toISOString()
      : '2026-12-02T10:29:41.000Z';
  return {
    primary: 'score',
    contenders: bases,
    runs: Array.from({ length: runs }, (_, i) => ({
      runId: `run-${i + 1}`,
      at: at(i),
      state: 'completed',
      scores: bases.flatMap((c, k) =>
        datasets.map((dataset, d) => ({
          contender: c.key,
          dataset,
          score:
            k === bases.length - 1 && k > 0
              ? null
              : k < 2
                ? 1
                : k === 2
                  ? 0
                  : Math.round((0.9 - k * 0.03 - d * 0.05 + ((i * 7 + k) % 5) * 0.02) * 100) / 100,
        })),
      ),
    })),
  };
}
