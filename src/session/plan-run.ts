import { availableParallelism } from 'node:os';
import pc from 'picocolors';
import type { Plan } from '../core/plan.ts';
import { readCatalogs, type ReadCatalog } from '../providers/catalog-check.ts';
import type { Io } from '../cli/io.ts';
import { openSuite } from './open-suite.ts';
import type { RunRequest, Sample, SaveChoice, Selection } from '../core/request.ts';
import { parseBatchPoll } from '../core/batch.ts';
import { ConfigError, quote } from '../errors.ts';
import { loadCases, selectCases, shortPath, type LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { resolveModelIds } from '../suite/model-ids.ts';
import { buildPlan } from '../suite/plan.ts';
import { sampleCases } from '../core/sample.ts';
import { renderDetectableLine } from '../report/estimate-line.ts';

/** Loads the suite's cases for a run: the first broken case is a ConfigError; the selection's datasets and cases pick. */
export function casesForRun(suite: LoadedSuite, selection: Selection, io: Io): LoadedCase[] {
  const { cases, problems } = loadCases(suite.root, suite.casesGlob);
  const first = problems[0];
  if (first) throw new ConfigError(shortPath(io.cwd, first.file), first.key, first.problem);
  const { datasets, cases: picked, sample } = selection;
  const selected = selectCases(cases, datasets, picked);
  if (selected.length === 0) {
    const what = [
      datasets.length ? `-d ${datasets.join(',')}` : '',
      picked.length ? `-c ${picked.join(',')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    throw new ConfigError(
      undefined,
      what || suite.casesGlob,
      `selects no case (the suite has ${cases.length})`,
    );
  }
  return sample ? sampleCases(selected, sample.size, sample.seed) : selected;
}

/** Cases per dataset. */
function countByDataset(cases: readonly { dataset: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of cases) counts[c.dataset] = (counts[c.dataset] ?? 0) + 1;
  return counts;
}

/**
 * How a sample stands against its suite, per dataset: `4 of 20 cases per dataset`, or each dataset's when they
 * differ (`pets 4 of 20, toys 3 of 3`).
 */
export function sampleShare(sampled: Record<string, number>, population: Record<string, number>): string {
  const shares = Object.entries(population).map(([d, m]) => [d, `${sampled[d] ?? 0} of ${m}`] as const);
  const same = new Set(shares.map(([, share]) => share));
  return same.size === 1 ? `${shares[0]![1]} cases per dataset` : shares.map((s) => s.join(' ')).join(', ');
}

/**
 * What a `--sample` run says before it starts: that it is a sample, of how many out of how many, and what it can tell
 * apart (the smallest difference a paired test over that many cases detects).
 */
export function sampleLine(planned: PlannedRun, sample: Sample, width?: number): string {
  const perDataset = countByDataset(planned.cases);
  const smallest = Math.min(...Object.values(perDataset));
  return (
    `a sample: ${sampleShare(perDataset, planned.population ?? perDataset)}, stratified by variant ` +
    `(--seed ${sample.seed}), ${planned.cases.length} in all; ` +
    renderDetectableLine(smallest, undefined, width).replace(/^with/, 'per dataset, with')
  );
}

/** The waits between looks at a batch: `LLM_EVALS_BATCH_POLL` (`FIRST,LAST` seconds), else 30 s up to 10 min. */
function batchPoll(env: NodeJS.ProcessEnv): [number, number] {
  const poll = parseBatchPoll(env.LLM_EVALS_BATCH_POLL);
  if (poll) return poll;
  const problem = `expected FIRST,LAST seconds (such as 30,600), got ${quote(env.LLM_EVALS_BATCH_POLL)}`;
  throw new ConfigError(undefined, 'LLM_EVALS_BATCH_POLL', problem);
}

/** A planned run with the suite and cases it was planned from. */
export interface PlannedRun {
  suite: LoadedSuite;
  cases: LoadedCase[];
  plan: Plan;
  /** With `--sample`: each dataset's cases before sampling. */
  population?: Record<string, number>;
  /** The catalogs read while planning: online for a dry run (its estimate reuses them), else from caches only. */
  catalogs?: ReadonlyMap<string, ReadCatalog>;
  /** Where the request saves its run, and so where the suite's earlier runs are found. */
  save: SaveChoice;
}

/** Opens the suite the request names and expands it into a Plan; warns about refusals on stderr. */
export async function planRun(request: RunRequest, io: Io): Promise<PlannedRun> {
  return planSuite(await openSuite(request.suite, io), request, io);
}

/** Expands an open suite into a Plan as the request asks; warns about refusals on stderr. */
export async function planSuite(suite: LoadedSuite, request: RunRequest, io: Io): Promise<PlannedRun> {
  const { selection, contenders: chosen } = request;
  const { sample } = selection;
  const selected = casesForRun(suite, { ...selection, sample: undefined }, io);
  const cases = sample ? sampleCases(selected, sample.size, sample.seed) : selected;
  const plan = buildPlan(suite, cases, {
    models: chosen.models && (await resolveModelIds(suite, chosen.models)),
    overrides: {
      ...(chosen.effort ? { effort: chosen.effort } : {}),
      ...(chosen.temperature ? { temperature: chosen.temperature } : {}),
      ...(chosen.maxTokens ? { maxTokens: chosen.maxTokens } : {}),
    },
    parallelism: chosen.parallelism,
    repeat: chosen.repeat,
    cache: request.cache,
    ...(request.batch ? { batch: batchPoll(io.env) } : {}),
    concurrency: chosen.concurrency ?? availableParallelism(),
    options: request.recorded,
  });
  for (const r of plan.refused) io.stderr.write(pc.yellow(`warning: ${r.message}`) + '\n');
  const online = request.dryRun;
  const read = await readCatalogs(
    suite.registry,
    plan.contenders.map((c) => c.provider),
    { online },
  );
  // A model its provider's catalog does not list is refused by the checks before the run (suiteProblems).
  if (online) for (const note of read.notes) io.stderr.write(pc.dim(note) + '\n');
  return {
    suite,
    cases,
    plan,
    catalogs: read.catalogs,
    save: request.save,
    ...(sample ? { population: countByDataset(selected) } : {}),
  };
}
