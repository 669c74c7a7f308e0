// The change between two runs: what of a run a change compares (its digest, from a snapshot) and the comparison of
// two digests, contender by dataset, paired case by case. What a schedule or a gate makes of a change is theirs
// (schedule-verdict.ts, src/gate).
import { z } from 'zod';
import { summarize } from './aggregate.ts';
import { ALPHA, caseValue, PairedTestSchema, PointIntervalSchema } from './comparisons.ts';
import { clustersOfCases, DatasetClusteringSchema } from './cluster-se.ts';
import { groupBy } from './group.ts';
import { ContenderSchema, withoutRepeat } from './matrix.ts';
import { fnv1a } from './fnv.ts';
import { comparePaired, holm } from './paired.ts';
import type { CaseResult } from './results.ts';
import type { SnapshotCore } from './snapshot-core.ts';
import { weightedScores, weightValues } from './weights.ts';

/** One experiment's per-case primary metric (`null`: no value) and reply starts, so two runs can be paired by case. */
export const CaseValuesSchema = z.object({
  contender: z.string(),
  dataset: z.string(),
  values: z.record(z.string(), z.number().nullable()),
  replies: z.record(z.string(), z.string()),
});

/** One contender over one dataset of a run, as a change compares it. */
export const ScoreRowSchema = z.object({
  /** The contender's key. */
  contender: z.string(),
  dataset: z.string(),
  /** The primary metric's mean. */
  score: z.number().nullable(),
  /** `null` without weights, or when a weighted value is missing. */
  wscore: z.number().nullable(),
  cost: z.number().nullable(),
  latency: z.number().nullable(),
  errors: z.number(),
  cases: z.number(),
});
/** One contender over one dataset of a run, as a change compares it. */
export type ScoreRow = z.infer<typeof ScoreRowSchema>;

/** What of a run a change compares: its figures per contender and dataset, and its cases with their content hashes. */
export const RunDigestSchema = z.object({
  runId: z.string(),
  createdAt: z.string(),
  /** The primary metric's name (`score` when the scorer declares none). */
  primary: z.string(),
  contenders: z.array(ContenderSchema),
  rows: z.array(ScoreRowSchema),
  /** Per dataset, each case key and its content hash (`''` when unknown). */
  cases: z.record(z.string(), z.record(z.string(), z.string())),
  /** Per experiment: each case's primary metric (a failed case 0) and the start of its reply, for paired tests. */
  perCase: z.array(CaseValuesSchema).optional(),
  /** Each clustered case's cluster by case key (`clustersOfCases`): paired tests on them are the clustered ones. */
  clusters: z.record(z.string(), z.string()).optional(),
  /** Per dataset, the clustering of the run's cases, when the digest was made with them. */
  clustering: z.array(DatasetClusteringSchema).optional(),
});
/** What of a run a change compares. */
export type RunDigest = z.infer<typeof RunDigestSchema>;

const FlipSchema = z.object({ caseKey: z.string(), before: z.string(), after: z.string() });

/** A row's paired test between two runs, and the cases that flipped (replies cut short; lists capped). */
export const PairedChangeSchema = z.object({
  ...PairedTestSchema.shape,
  significant: z.boolean(),
  /** How many cases went from right (full marks) to wrong, and back; `toWrong`/`toRight` list the first of them. */
  flippedToWrong: z.number(),
  flippedToRight: z.number(),
  toWrong: z.array(FlipSchema),
  toRight: z.array(FlipSchema),
});
/** A row's paired test between two runs, and the cases that flipped. */
export type PairedChange = z.infer<typeof PairedChangeSchema>;

const FigureSchema = z.object({
  before: z.number().nullable(),
  after: z.number().nullable(),
  delta: z.number().nullable(),
});
/** A figure then and now, and now minus then (`null` when either is missing). */
export type Figure = z.infer<typeof FigureSchema>;

/** The change from one run to another: per contender and dataset, contenders and cases added or gone. */
export const RunChangeSchema = z.object({
  before: z.object({ runId: z.string(), createdAt: z.string() }),
  after: z.object({ runId: z.string(), createdAt: z.string() }),
  primary: z.string(),
  /** Every contender of either run, so gone ones keep their names. */
  contenders: z.array(ContenderSchema),
  rows: z.array(
    z.object({
      contender: z.string(),
      dataset: z.string(),
      /** `both`, or only in the later run (`added`), or only in the earlier (`gone`). */
      presence: z.enum(['both', 'added', 'gone']),
      score: FigureSchema,
      wscore: FigureSchema,
      cost: FigureSchema,
      latency: FigureSchema,
      errors: FigureSchema,
      /** The paired test of the primary metric on the cases both runs share unedited (after − before). */
      paired: PairedChangeSchema.optional(),
    }),
  ),
  addedContenders: z.array(z.string()),
  goneContenders: z.array(z.string()),
  cases: z.object({ added: z.array(z.string()), gone: z.array(z.string()), changed: z.array(z.string()) }),
  /** The clustering the paired tests used, per dataset (the later run's), when known. */
  clustering: z.array(DatasetClusteringSchema).optional(),
});
/** The change from one run to another. */
export type RunChange = z.infer<typeof RunChangeSchema>;
/** One contender on one dataset in a change. */
export type ChangeRow = RunChange['rows'][number];

/** A schedule's recent runs, oldest first, with each contender's primary score per dataset: the trend picture's data. */
export const TrendSchema = z.object({
  primary: z.string(),
  contenders: z.array(ContenderSchema),
  runs: z.array(
    z.object({
      runId: z.string(),
      at: z.string(),
      state: z.string(),
      scores: z.array(z.object({ contender: z.string(), dataset: z.string(), score: z.number().nullable() })),
      /** Each contender's 95 % interval per dataset (repeats merged), where the run had two cases or more. */
      intervals: z.array(PointIntervalSchema).optional(),
    }),
  ),
});
/** A schedule's recent runs with each contender's primary score per dataset, oldest first. */
export type Trend = z.infer<typeof TrendSchema>;

/** The primary metric of a run's scorer: the one marked primary, else the first, else `score`. */
export function primaryMetric(metrics: readonly { name: string; primary?: boolean | undefined }[]): string {
  return (metrics.find((m) => m.primary) ?? metrics[0])?.name ?? 'score';
}

/**
 * A snapshot's digest: each contender's figures per dataset as its dataset's standings show them (the same summary,
 * the same wscore within the dataset's table), and every planned case with its hash (from the snapshot's cases,
 * unless given). With `--repeat` a contender's repeats are one contender, as in the standings: one row over all their
 * results, each case's value the mean of its repeats, so a repeated run pairs with a plain one.
 */
export function digestOf(
  snapshot: SnapshotCore,
  hashes: ReadonlyMap<string, string> = new Map(snapshot.cases.map((c) => [c.key, c.hash ?? ''])),
): RunDigest {
  const metricNames = snapshot.metrics.map((m) => m.name);
  const primary = primaryMetric(snapshot.metrics);
  const resultsOf = groupBy(snapshot.results, (r) => r.experimentId);
  const baseOf = new Map(snapshot.contenders.map((c) => [c.key, withoutRepeat(c)]));
  const contenders = [...new Map([...baseOf.values()].map((c) => [c.key, c])).values()];
  // One group per contender (its repeats merged) and dataset, in the experiments' order.
  const groups = [
    ...groupBy(
      snapshot.experiments,
      (e) => `${baseOf.get(e.contender)?.key ?? e.contender}\u0000${e.dataset}`,
    ).values(),
  ].map((members) => ({
    contender: baseOf.get(members[0]!.contender)?.key ?? members[0]!.contender,
    dataset: members[0]!.dataset,
    results: members.flatMap((e) => resultsOf.get(e.id) ?? []),
  }));
  const summaries = groups.map((g) =>
    summarize(g.results, metricNames, snapshot.settings.parallelism, primary),
  );
  const wscores = new Map<number, number | null>();
  if (snapshot.weights) {
    const byDataset = groupBy(
      groups.map((g, i) => ({ g, i })),
      ({ g }) => g.dataset,
    );
    for (const members of byDataset.values()) {
      const inputs = members.map(({ i }) => ({
        values: weightValues(summaries[i]!),
        errors: summaries[i]!.errors,
      }));
      weightedScores(inputs, snapshot.weights).forEach((w, j) => wscores.set(members[j]!.i, w));
    }
  }
  const cases: RunDigest['cases'] = {};
  for (const e of snapshot.experiments) {
    cases[e.dataset] ??= Object.fromEntries(e.caseKeys.map((k) => [k, hashes.get(k) ?? '']));
  }
  const builtIn = !metricNames.includes(primary);
  const perCase = groups.map((g) => {
    const sums = new Map<string, [number, number]>();
    const replies: Record<string, string> = {};
    for (const r of g.results) {
      replies[r.caseKey] ??= replyStart(r);
      const value = caseValue(r, primary, builtIn);
      const [sum, n] = sums.get(r.caseKey) ?? [0, 0];
      sums.set(r.caseKey, value === null ? [sum, n] : [sum + value, n + 1]);
    }
    return {
      contender: g.contender,
      dataset: g.dataset,
      values: Object.fromEntries([...sums].map(([k, [sum, n]]) => [k, n ? sum / n : null])),
      replies,
    };
  });
  const clustered = snapshot.cases.length ? clustersOfCases(snapshot.cases) : undefined;
  return {
    runId: snapshot.runId,
    createdAt: snapshot.createdAt,
    primary,
    perCase,
    ...(clustered?.clusters.size ? { clusters: Object.fromEntries(clustered.clusters) } : {}),
    ...(clustered ? { clustering: clustered.clustering } : {}),
    contenders,
    rows: groups.map((g, i) => {
      const s = summaries[i]!;
      return {
        contender: g.contender,
        dataset: g.dataset,
        score: weightValues(s)[primary] ?? null,
        wscore: wscores.get(i) ?? null,
        cost: s.usage.costUsd,
        latency: s.latency,
        errors: s.errors,
        cases: s.cases,
      };
    }),
    cases,
  };
}

/** How much of a reply a flipped case shows. */
const REPLY_START = 200;
/** How many flipped cases a row lists each way; the counts say how many there were. */
const FLIPS_LISTED = 20;

/** The start of a result's reply, or its error when it has none. */
function replyStart(r: CaseResult): string {
  const text = r.reply ?? (r.error ? `error: ${r.error}` : '');
  return text.length > REPLY_START ? `${text.slice(0, REPLY_START)}…` : text;
}

/** Full marks: what a flip's right means for a graded metric. */
const isRight = (v: number) => v >= 1 - 1e-9;

/**
 * Each row's paired test (after − before on the shared, unedited cases), Holm-corrected per dataset, and the cases
 * that flipped between right and wrong with their replies.
 */
function pairedChanges(
  before: RunDigest,
  after: RunDigest,
  rows: readonly ChangeRow[],
  edited: ReadonlySet<string>,
): (PairedChange | undefined)[] {
  // The later run's clusters, its cases being the ones paired; the earlier run's only when the later was digested
  // without its cases (read from Temporal).
  const clusters = after.clustering ? after.clusters : before.clusters;
  const find = (d: RunDigest, row: ChangeRow) =>
    d.perCase?.find((p) => p.contender === row.contender && p.dataset === row.dataset);
  const raw = rows.map((row) => {
    const [then, now] = [find(before, row), find(after, row)];
    if (row.presence !== 'both' || !then || !now) return undefined;
    const keys = Object.keys(now.values).filter((k) => k in then.values && !edited.has(k));
    const result = comparePaired(
      keys.map((k) => now.values[k] ?? null),
      keys.map((k) => then.values[k] ?? null),
      {
        seed: fnv1a(`${before.runId}|${after.runId}|${row.contender}|${row.dataset}`),
        ...(clusters ? { clusters: keys.map((k) => clusters[k]) } : {}),
      },
    );
    // In case-key order: a run's results come in the order its calls finished, which differs from run to run.
    const flips = (from: boolean) =>
      [...keys]
        .sort()
        .filter((k) => {
          const [b, a] = [then.values[k], now.values[k]];
          return (
            b !== null &&
            b !== undefined &&
            a !== null &&
            a !== undefined &&
            isRight(b) === from &&
            isRight(a) !== from
          );
        })
        .map((caseKey) => ({
          caseKey,
          before: then.replies[caseKey] ?? '',
          after: now.replies[caseKey] ?? '',
        }));
    const [toWrong, toRight] = [flips(true), flips(false)];
    return {
      ...result,
      flippedToWrong: toWrong.length,
      flippedToRight: toRight.length,
      toWrong: toWrong.slice(0, FLIPS_LISTED),
      toRight: toRight.slice(0, FLIPS_LISTED),
    };
  });
  const adjusted = new Map<number, number>();
  for (const members of groupBy(
    rows.map((row, i) => ({ row, i })).filter(({ i }) => raw[i]),
    ({ row }) => row.dataset,
  ).values()) {
    holm(members.map(({ i }) => raw[i]!.pValue)).forEach((p, j) => adjusted.set(members[j]!.i, p));
  }
  return raw.map((r, i) =>
    r ? { ...r, pAdjusted: adjusted.get(i)!, significant: adjusted.get(i)! < ALPHA } : undefined,
  );
}

const figure = (before: number | null | undefined, after: number | null | undefined): Figure => {
  const b = before ?? null;
  const a = after ?? null;
  return { before: b, after: a, delta: a !== null && b !== null ? a - b : null };
};

/** The change from `before` to `after`: rows in the later run's order, then those gone; cases added, gone or edited. */
export function diffRuns(before: RunDigest, after: RunDigest): RunChange {
  const rowKey = (r: Pick<ScoreRow, 'contender' | 'dataset'>) => `${r.contender}\u0000${r.dataset}`;
  const then = new Map(before.rows.map((r) => [rowKey(r), r]));
  const now = new Map(after.rows.map((r) => [rowKey(r), r]));
  const pair = (b: ScoreRow | undefined, a: ScoreRow | undefined): ChangeRow => {
    const { contender, dataset } = (a ?? b)!;
    return {
      contender,
      dataset,
      presence: a && b ? 'both' : a ? 'added' : 'gone',
      score: figure(b?.score, a?.score),
      wscore: figure(b?.wscore, a?.wscore),
      cost: figure(b?.cost, a?.cost),
      latency: figure(b?.latency, a?.latency),
      errors: figure(b?.errors, a?.errors),
    };
  };
  const rows = [
    ...after.rows.map((a) => pair(then.get(rowKey(a)), a)),
    ...before.rows.filter((b) => !now.has(rowKey(b))).map((b) => pair(b, undefined)),
  ];
  const keysOf = (d: RunDigest) => new Set(d.contenders.map((c) => c.key));
  const [was, is] = [keysOf(before), keysOf(after)];
  const hashesOf = (d: RunDigest) =>
    new Map(Object.values(d.cases).flatMap((dataset) => Object.entries(dataset)));
  const [oldCases, newCases] = [hashesOf(before), hashesOf(after)];
  const changed = [...newCases].filter(([key, hash]) => {
    const old = oldCases.get(key);
    return old !== undefined && old !== '' && hash !== '' && old !== hash;
  });
  const contenders = [...after.contenders, ...before.contenders.filter((c) => !is.has(c.key))];
  const paired = pairedChanges(before, after, rows, new Set(changed.map(([k]) => k)));
  rows.forEach((row, i) => {
    if (paired[i]) row.paired = paired[i];
  });
  return {
    before: { runId: before.runId, createdAt: before.createdAt },
    after: { runId: after.runId, createdAt: after.createdAt },
    primary: after.primary,
    contenders,
    rows,
    addedContenders: [...is].filter((k) => !was.has(k)),
    goneContenders: [...was].filter((k) => !is.has(k)),
    cases: {
      added: [...newCases.keys()].filter((k) => !oldCases.has(k)).sort(),
      gone: [...oldCases.keys()].filter((k) => !newCases.has(k)).sort(),
      changed: changed.map(([k]) => k).sort(),
    },
    ...(after.clustering ? { clustering: after.clustering } : {}),
  };
}
