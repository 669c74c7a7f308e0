import type { Adapter } from '../src/api/adapter.ts';
import { failedScore, type Scorer, type ScorerTools } from '../src/api/scorer.ts';
import type { Case, Reply, Score } from '../src/api/types.ts';
import type { Contender } from '../src/core/matrix.ts';
import { transportErrorResult } from '../src/core/outcomes.ts';
import { SCORER_FAILED } from '../src/core/rescore.ts';
import { JudgeFailed, JudgeScorer } from '../src/scorers/judge.ts';
import { pairwiseRound } from './pairwise-round.ts';
import { capReply, capTrajectory, cutNote, UNKNOWN_USAGE, type CaseResult } from '../src/core/results.ts';
import type { ProviderRegistry } from '../src/providers/registry.ts';
import { MAX_ATTEMPTS } from '../src/core/retry.ts';
import { lacking, MISSING_KEY_SECONDS, type MissingKey } from '../src/core/missing-key.ts';
import { gatedModel, TransportError, type CallLog, type GateClient } from './gated-model.ts';
import { cachedModel, cacheFields, SKIPPED_NOTE, type CacheLog, type ReplyCache } from './cached-model.ts';

/** What a worker brings to its activities: the suite's code and cases, loaded in its own process, and the run's gate. */
export interface CaseDeps {
  adapter: Adapter;
  scorer: Scorer;
  /** The judge models the scorer may call, by id as the lineup names them: each goes out as this contender. */
  judges?: ReadonlyMap<string, Contender>;
  registry: ProviderRegistry;
  cases: ReadonlyMap<string, Case & { hash: string }>;
  /** Reads the cases again from disk: a long-lived worker's cases may be older than a run planned since. */
  refreshCases?: () => void;
  gate: GateClient;
  /** The reply cache, asked before the gate; none: every call is made. */
  replies?: ReplyCache;
  /** Where the providers' keys are read; the process's own when absent. */
  env?: NodeJS.ProcessEnv;
}

/** One case to run: which experiment, which case (by key and the hash the plan saw), which contender. */
export interface CaseTask {
  runId: string;
  experimentId: string;
  caseKey: string;
  caseHash: string;
  contender: Contender;
}

/**
 * How one try of a case ended: a result, not run because the gate said so, or a call failure worth retrying, `delay`
 * seconds after `failedAt`; `attempts` counts the tries so far, this one included.
 */
export type CaseOutcome =
  | { result: CaseResult }
  | { deferred: 'paused' | 'stopped' }
  /** This worker cannot run it (it lacks the case, the provider or its key): handed back for a worker that can. */
  | { declined: string }
  | { retry: { delay?: number; error: string; failedAt: number; attempts: number } };

/**
 * The seconds still to wait, at `now`, before a failed call is tried again: its delay (1 s when it named none) less
 * the time since it failed, which its pool's report has already taken.
 */
export function delayLeft(retry: { delay?: number; failedAt: number }, now: number): number {
  return Math.max(0, (retry.delay ?? 1) - (now - retry.failedAt) / 1000);
}

/** A failure worth retrying after its last try (MAX_ATTEMPTS): the error the case ends with. Other outcomes pass. */
export function outOfTries(task: CaseTask, outcome: CaseOutcome): CaseOutcome {
  if (!('retry' in outcome) || outcome.retry.attempts < MAX_ATTEMPTS) return outcome;
  const now = new Date().toISOString();
  const { error, attempts } = outcome.retry;
  return { result: { ...transportErrorResult(task.experimentId, task.caseKey, error, now, now), attempts } };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Each dataset's `adapter.prepare`, made once, by whichever runner of the process needs it first. */
export type Prepared = Map<string, Promise<void>>;

/**
 * Tells a run's gate that this worker cannot call a contender (MissingKey), so that `status` says why its cases wait:
 * at most once every few seconds per run, key or provider, and contender.
 */
export function missingTeller(gate: GateClient): (runId: string, missing: MissingKey) => Promise<void> {
  // When this worker last told each run's gate that it cannot call a contender: once per few seconds is enough.
  const told = new Map<string, number>();
  return async (runId, missing) => {
    const key = `${runId} ${lacking(missing)} ${missing.contender}`;
    if ((told.get(key) ?? 0) > Date.now() - 5000) return;
    told.set(key, Date.now());
    // Only `status`'s word depends on it: the case waits all the same when the gate cannot be told.
    await gate.cannotCall(runId, missing, MISSING_KEY_SECONDS).catch(() => undefined);
  };
}

/** A call failure worth retrying, as the case's outcome: its delay, error, when it failed, and the tries so far. */
function retryOf(failure: TransportError, attempts: number): CaseOutcome {
  const { delay } = failure.verdict;
  return {
    retry: {
      ...(delay !== undefined ? { delay } : {}),
      error: failure.message,
      failedAt: failure.failedAt,
      attempts,
    },
  };
}

/** What this worker lacks to call `contender` at all (its provider, or the provider's key), if anything. */
export function cannotCall(
  deps: Pick<CaseDeps, 'registry' | 'env'>,
  contender: Contender,
): MissingKey | undefined {
  const provider = deps.registry.get(contender.provider);
  if (!provider) return { provider: contender.provider, contender: contender.id };
  const env = deps.env ?? process.env;
  const envVar = provider.envKeys.find((key) => !env[key]);
  return envVar ? { envVar, contender: contender.id } : undefined;
}

/** Why a worker lacking `missing` declines a contender's cases. */
export function cannotCallNote(missing: MissingKey): string {
  return 'envVar' in missing
    ? `${missing.envVar} is not set in this worker's environment`
    : `this worker knows no provider ${missing.provider}`;
}

/**
 * Builds the function that runs one case: load it, call the adapter with the gated model, score the reply. Runners
 * given the same `prepared` prepare each dataset once between them.
 */
export function createCaseRunner(deps: CaseDeps, prepared: Prepared = new Map()) {
  const tell = missingTeller(deps.gate);
  const tellMissing = (task: CaseTask, missing: MissingKey) => tell(task.runId, missing);
  return async function runOne(task: CaseTask, attempts: number): Promise<CaseOutcome> {
    const startedAt = new Date();
    const log: CallLog = { usage: UNKNOWN_USAGE, latency: null, waited: 0 };
    const cache: CacheLog = { replies: 0, calls: 0, paidUsd: 0 };
    const finish = (fields: Partial<CaseResult> & Pick<CaseResult, 'status'>): CaseOutcome => {
      const finishedAt = new Date();
      return {
        result: {
          experimentId: task.experimentId,
          caseKey: task.caseKey,
          attempts,
          score: null,
          metrics: {},
          outcomes: {},
          diagnostics: {},
          usage: log.usage,
          latency: log.latency,
          duration: (finishedAt.getTime() - startedAt.getTime()) / 1000 - log.waited,
          waited: log.waited,
          startedAt: startedAt.toISOString(),
          finishedAt: finishedAt.toISOString(),
          ...cacheFields(cache),
          ...fields,
        },
      };
    };
    const current = () => {
      const found = deps.cases.get(task.caseKey);
      return found?.hash === task.caseHash ? found : undefined;
    };
    if (!current()) deps.refreshCases?.();
    const kase = current() ?? deps.cases.get(task.caseKey);
    // Another project's worker on the same queue (a suite of the same name), or one on an older checkout: the case is
    // not this worker's to fail. It goes back, for a worker that holds it.
    if (!kase) return { declined: `this worker has no case ${task.caseKey}: its suite is not the run's` };
    if (kase.hash !== task.caseHash) {
      return finish({
        status: 'error',
        error: `case ${task.caseKey} changed on disk since the run was planned`,
      });
    }
    // A worker whose config lacks the run's endpoint (or whose helper lacks the provider), or the provider's key, makes
    // no call: the case goes back for a worker that can (the pools' own check, made before they lease, for a retry).
    const missing = cannotCall(deps, task.contender);
    if (missing) {
      await tellMissing(task, missing);
      return { declined: cannotCallNote(missing) };
    }
    const provider = deps.registry.get(task.contender.provider)!;
    // Paused means no case advances, not even one the reply cache would answer without a call (which asks no slot).
    const control = await deps.gate.control?.(task.runId);
    if (control) return { deferred: control };
    let reply: Reply | undefined;
    let failure: unknown;
    try {
      if (!prepared.has(kase.dataset))
        prepared.set(kase.dataset, Promise.resolve(deps.adapter.prepare(kase.dataset)));
      await prepared.get(kase.dataset);
      const gated = gatedModel(task.contender, provider, deps.gate, task.runId, log, attempts, deps.env);
      const model = cachedModel(gated, task.contender, provider, task.runId, deps.replies, log, cache);
      reply = await deps.adapter.call(kase, model);
    } catch (error) {
      failure = error;
    }
    // The gate's word wins over whatever the adapter made of the call it stopped.
    if (log.missingKey) {
      await tellMissing(task, { envVar: log.missingKey, contender: task.contender.id });
      return { declined: cannotCallNote({ envVar: log.missingKey, contender: task.contender.id }) };
    }
    if (log.control) return { deferred: log.control };
    if (cache.skipped) return finish({ status: 'error', error: SKIPPED_NOTE, skipped: true });
    if (failure instanceof TransportError) {
      if (!failure.verdict.retry)
        return finish({ status: 'error', error: `${failure.message} (${failure.verdict.reason})` });
      return retryOf(failure, attempts);
    }
    if (!reply) return finish({ status: 'error', error: `the adapter failed: ${message(failure)}` });
    const usage = reply.usage ?? log.usage;
    const text = {
      ...capReply(reply.raw),
      ...(reply.output !== undefined ? { output: reply.output } : {}),
      // An agent's steps, capped: what its case page shows as a timeline.
      ...capTrajectory(reply),
      ...(log.truncated ? { truncated: true } : {}),
    };
    if (reply.error !== undefined) {
      // The scorer decides what a failed reply is worth on each metric; a scorer without `failed` gets the default.
      const scorer = deps.scorer as Partial<Scorer> & Scorer;
      let failed: Score;
      try {
        failed = scorer.failed
          ? scorer.failed(kase, reply, deps.adapter.context(kase))
          : failedScore(scorer.metrics());
      } catch (error) {
        return finish({ status: 'error', error: `${SCORER_FAILED}${message(error)}`, usage, ...text });
      }
      const { metrics, outcomes = {}, diagnostics = {} } = failed;
      // A reply cut at the token limit says so first: the fix is a bigger max_tokens, not a better model.
      const error = log.truncated ? `${cutNote(task.contender.maxTokens)}: ${reply.error}` : reply.error;
      const fields = { score: 0, metrics, outcomes, diagnostics, error, usage, ...text };
      return finish({ status: 'reply_error', ...fields });
    }
    // The judge's calls are provider calls like the contender's: the same gate, reply cache and retries, but their
    // own log, so that their tokens and dollars stay apart from the contender's.
    const judgeLog: CallLog = { usage: UNKNOWN_USAGE, latency: null, waited: 0 };
    const judgeCache: CacheLog = { replies: 0, calls: 0, paidUsd: 0 };
    let asked = 0;
    const tools: ScorerTools = {
      judge: (id, sample) => {
        const judge = deps.judges?.get(id);
        const judgeProvider = judge && deps.registry.get(judge.provider);
        if (!judge || !judgeProvider)
          throw new Error(`the judge model ${id} is not one this worker's lineup reaches`);
        const contender = { ...judge, repeat: sample };
        const gated = gatedModel(
          contender,
          judgeProvider,
          deps.gate,
          task.runId,
          judgeLog,
          attempts,
          deps.env,
        );
        const model = cachedModel(
          gated,
          contender,
          judgeProvider,
          task.runId,
          deps.replies,
          judgeLog,
          judgeCache,
        );
        return {
          ...model,
          complete: (request) => {
            asked++;
            return model.complete(request);
          },
        };
      },
    };
    // What the judge cost this reply, apart from the contender's usage: calls made, verdicts from the cache, dollars.
    // Without a reply cache every verdict asked was a call, its dollars the provider's word.
    const judged = (): Record<string, number> =>
      asked > 0
        ? {
            judge_calls: deps.replies ? judgeCache.calls : asked,
            judge_cached: judgeCache.replies,
            judge_usd: deps.replies ? judgeCache.paidUsd : (judgeLog.usage.costUsd ?? 0),
            ...(judgeLog.usage.inputTokens !== null ? { judge_tokens_in: judgeLog.usage.inputTokens } : {}),
            ...(judgeLog.usage.outputTokens !== null
              ? { judge_tokens_out: judgeLog.usage.outputTokens }
              : {}),
          }
        : {};
    try {
      const score = await deps.scorer.call(kase, reply, deps.adapter.context(kase), tools);
      const { value, metrics, outcomes = {}, diagnostics = {} } = score;
      const against = task.contender.pairwiseWith;
      const pairwise =
        against && deps.scorer instanceof JudgeScorer && reply.raw !== undefined
          ? await pairwiseRound(
              deps,
              { runId: task.runId, attempts, judgeLog },
              against,
              deps.scorer,
              kase,
              reply.raw,
              tools,
            )
          : undefined;
      return finish({
        status: 'scored',
        score: value,
        metrics,
        outcomes,
        diagnostics: { ...diagnostics, ...judged(), ...(pairwise ? { pairwise } : {}) },
        usage,
        ...text,
      });
    } catch (error) {
      // The judge's gate said pause or stop, or this worker lacks its key: the case waits, its answer in the cache.
      if (judgeLog.control) return { deferred: judgeLog.control };
      if (error instanceof TransportError && error.verdict.retry) return retryOf(error, attempts);
      // A verdict no judge gave readably is the judge's failure, counted apart: not a throw of the suite's scorer,
      // which pauses the run after three.
      const error_ = error instanceof JudgeFailed ? message(error) : `${SCORER_FAILED}${message(error)}`;
      return finish({ status: 'error', error: error_, usage, ...text });
    }
  };
}
