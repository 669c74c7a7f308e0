import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { RunRequest, SaveChoice } from '../core/request.ts';
import { planExperiments } from '../core/matrix.ts';
import type { Plan } from '../core/plan.ts';
import type { RunInput } from '../core/run-input.ts';
import type { Snapshot } from '../core/snapshot.ts';
import type { LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import type { PlannedRun } from './plan-run.ts';
import { planBasis } from '../suite/plan.ts';

/** The results of a run that ended in an error: no reply, or a reply its scorer could not grade. */
export function erroredResults(snapshot: Pick<Snapshot, 'results'>): number {
  return snapshot.results.filter((r) => r.status === 'error').length;
}

/** The closing line of a run whose errors remain: how `resume --retry-errors` calls them again; '' when none. */
export function retryErrorsHint(snapshot: Pick<Snapshot, 'runId' | 'results'>): string {
  const errored = erroredResults(snapshot);
  if (errored === 0) return '';
  const command = pc.bold(`llm-evals resume ${snapshot.runId} --retry-errors`);
  return `${errored} ${errored === 1 ? 'case' : 'cases'} ended in an error: ${command} calls ${errored === 1 ? 'it' : 'them'} again`;
}

/**
 * The plan of a run that calls a finished run's errored cases again: the same contenders, limits and settings over
 * the same cases, reading the reply cache, so that the cases that have a reply take it from there and only the
 * errored ones are called. One new run with every case, not a run of the errored ones alone: its standings and paired
 * tests stand on the whole suite, as the first run's did. A case no longer on disk is left out.
 */
export function retryPlan(
  suite: LoadedSuite,
  onDisk: readonly LoadedCase[],
  original: Pick<Snapshot, 'runId' | 'results' | 'settings' | 'options' | 'weights'>,
  input: Pick<RunInput, 'contenders' | 'limits' | 'inFlight' | 'abortAfter' | 'parallelism' | 'concurrency'>,
  save: SaveChoice,
): PlannedRun {
  const keys = new Set(original.results.map((r) => r.caseKey));
  const cases = onDisk.filter((c) => keys.has(c.key));
  const { datasets, suite: planned, requestTypes, cases: listed } = planBasis(suite, cases);
  const plan: Plan = {
    version: 1,
    suite: planned,
    requestTypes,
    contenders: input.contenders,
    refused: [],
    cases: listed,
    experiments: planExperiments(input.contenders, datasets),
    limits: input.limits,
    inFlight: input.inFlight ?? {},
    settings: {
      parallelism: input.parallelism,
      concurrency: input.concurrency,
      ...(original.settings.repeat ? { repeat: original.settings.repeat } : {}),
      cache: 'read',
    },
    ...(original.weights ? { weights: original.weights } : {}),
    ...(input.abortAfter ? { abortAfter: input.abortAfter } : {}),
    options: { ...original.options, retryErrorsOf: original.runId },
  };
  return { suite, cases, plan, save };
}

/** Why `--retry-errors` calls nothing after this run, or undefined when it calls its errored cases again. */
export function cannotRetry(snapshot: Pick<Snapshot, 'runId' | 'status' | 'results'>): string | undefined {
  if (snapshot.status !== 'completed')
    return `run ${snapshot.runId} is ${snapshot.status}, not completed: no case is called again`;
  if (erroredResults(snapshot) === 0) return `no case of run ${snapshot.runId} ended in an error`;
  return undefined;
}

/** Says what `resume --retry-errors` is about to do, before the new run starts. */
export function announceRetry(original: Pick<Snapshot, 'runId' | 'results'>, io: Io): void {
  const errored = erroredResults(original);
  io.stderr.write(
    `${pc.bold(original.runId)}: ${errored} ${errored === 1 ? 'case' : 'cases'} ended in an error; calling ` +
      `${errored === 1 ? 'it' : 'them'} again in a new run, the other replies from the reply cache\n`,
  );
}

/** The request of the new run: resume's own, reading the cache whatever the first run did. */
export function retryRequest(request: RunRequest): RunRequest {
  return { ...request, cache: 'read', batch: false };
}
