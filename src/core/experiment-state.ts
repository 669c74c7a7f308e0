import {
  giveBack,
  isComplete,
  lease,
  newQueue,
  releaseOthers,
  settle,
  startRetry,
  waiting,
  type CaseQueue,
} from './case-queue.ts';
import type { CaseResult } from './results.ts';

/**
 * How a pool reports one case it took: a result, handed back unrun (paused, stopped), or failed in a way to retry
 * (`tried` times so far: 1 when absent).
 */
export type Settled =
  | { index: number; result: CaseResult }
  | { index: number; deferred: 'paused' | 'stopped' }
  | { index: number; retry: { delay: number; error: string; tried?: number } };

/** What a pool of calls sends its experiment: what finished since last time, and how many more cases it can take. */
export interface ExchangeRequest {
  holder: string;
  settled: Settled[];
  want: number;
}

/** Why a pool should end: the run stopped, the workflow continues as new, or a newer pool took over. */
export type PoolEnd = 'stopped' | 'handover' | 'superseded';

/**
 * A case leased to a pool: its index in the experiment's dataset, with its key and hash in a run started before the
 * plan store (the pool finds them in the run's plan otherwise).
 */
export type LeasedCase = [index: number] | [index: number, key: string, hash: string];

/** The experiment's answer: the next cases, or that the pool should end once its calls finish. */
export interface ExchangeAnswer {
  cases: LeasedCase[];
  end?: PoolEnd;
}

/** A case to run again as an activity of its own, under Temporal's retry policy, after `delay` seconds and `tried` tries. */
export interface RetryJob {
  index: number;
  delay: number;
  tried: number;
}

/** What an experiment workflow holds: its queue, the pool it serves, and whether it is ending. */
export interface ExperimentState {
  queue: CaseQueue;
  holder?: string;
  ending?: 'stopped' | 'handover';
}

/** A fresh experiment over `total` cases. */
export function newExperiment(total: number): ExperimentState {
  return { queue: newQueue(total) };
}

/** Whether a result counts as an error: a reply the adapter marked failed, or a call or scorer that failed. */
export function isFailure(result: CaseResult): boolean {
  return result.status !== 'scored';
}

/** The pool's holder id: one per activity attempt, so a retried pool is told apart from the one it replaces. */
export function holderOf(activityId: string, attempt: number): string {
  return `${activityId}:${attempt}`;
}

function attemptOf(holder: string): number {
  return Number(holder.slice(holder.lastIndexOf(':') + 1)) || 0;
}

/** The case at `index` as a pool receives it: with its key and hash when the experiment's input lists them. */
export function leased(index: number, cases?: readonly (readonly [key: string, hash: string])[]): LeasedCase {
  return cases ? [index, cases[index]![0], cases[index]![1]] : [index];
}

/**
 * Handles one exchange (mutates `state`): settles what the pool finished, hands out new cases unless the experiment
 * is ending, and says which failures to retry. A newer pool attempt takes over: the older one's leases come back.
 */
export function handleExchange(
  state: ExperimentState,
  request: ExchangeRequest,
  cases?: readonly (readonly [key: string, hash: string])[],
): { answer: ExchangeAnswer; accepted: CaseResult[]; retries: RetryJob[] } {
  const accepted: CaseResult[] = [];
  const retries: RetryJob[] = [];
  if (state.holder === undefined || attemptOf(request.holder) > attemptOf(state.holder)) {
    state.holder = request.holder;
    releaseOthers(state.queue, request.holder);
  }
  for (const item of request.settled) {
    if ('result' in item) {
      if (settle(state.queue, item.index, isFailure(item.result))) accepted.push(item.result);
    } else if ('deferred' in item) {
      giveBack(state.queue, item.index);
    } else if (startRetry(state.queue, item.index)) {
      retries.push({ index: item.index, delay: item.retry.delay, tried: item.retry.tried ?? 1 });
    }
  }
  const end: PoolEnd | undefined =
    request.holder !== state.holder ? 'superseded' : (state.ending ?? undefined);
  const given = end ? [] : lease(state.queue, request.holder, request.want);
  const answer: ExchangeAnswer = { cases: given.map((i) => leased(i, cases)) };
  if (end) answer.end = end;
  return { answer, accepted, retries };
}

/**
 * What a retried case's activity tells its experiment: before its call, whether the case still waits for it
 * (`result` absent); after it, the result, made durable before the activity ends.
 */
export interface RetryReport {
  index: number;
  result?: CaseResult;
}

/**
 * Handles a retried case's report (mutates `state`). A check before the call answers whether the case still runs as a
 * retry: when it does not, an earlier attempt of the same activity already reported it (its own end refused by
 * Temporal, which had given it up while the server was away), or the case went back to the pools, and the call must
 * not be made. A result settles the case by the rule every result follows (`settle`: the first result of a case still
 * outstanding counts, also one that went back to the pools meanwhile), which is also the rule the history's readers
 * apply; the answer says whether it counted.
 */
export function handleRetryReport(state: ExperimentState, report: RetryReport): boolean {
  if (report.result) return settle(state.queue, report.index, isFailure(report.result));
  return state.queue.retrying.includes(report.index);
}

/** What the experiment workflow does next once its pool has ended. */
export type NextStep = 'done' | 'pool' | 'wait' | 'stop' | 'continue-as-new';

/** Decides the next step after a pool ends: finished, stopped, continue as new, another pool, or wait for retries. */
export function nextStep(state: ExperimentState, continueAsNewSuggested: boolean): NextStep {
  if (isComplete(state.queue)) return 'done';
  if (state.ending === 'stopped') return 'stop';
  if (continueAsNewSuggested || state.ending === 'handover') {
    return state.queue.retrying.length === 0 ? 'continue-as-new' : 'wait';
  }
  return waiting(state.queue) > 0 ? 'pool' : 'wait';
}

/** The wait before a paused experiment tries a new pool: 2 s doubling to 30 s, so a long pause costs little. */
export function pauseDelay(pausesInARow: number): number {
  return Math.min(30, 2 * 2 ** Math.max(0, pausesInARow - 1));
}
