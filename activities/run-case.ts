import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Adapter } from '../src/api/adapter.ts';
import type { Scorer } from '../src/api/scorer.ts';
import type { Case, Reply } from '../src/api/types.ts';
import type { Contender } from '../src/core/matrix.ts';
import { capReply, UNKNOWN_USAGE, type CaseDeferral, type CaseResult } from '../src/core/results.ts';
import type { ProviderRegistry } from '../src/providers/registry.ts';
import { gatedModel, TransportError, type CallLog, type GateClient } from './gated-model.ts';

/** What the runCase activity is asked: one case of one experiment, by key and the hash the plan saw. */
export interface RunCaseInput {
  runId: string;
  experimentId: string;
  caseKey: string;
  caseHash: string;
  contender: Contender;
}

/** What a worker brings to its activities: the suite's code and cases, loaded in its own process, and the run's gate. */
export interface ActivityDeps {
  adapter: Adapter;
  scorer: Scorer;
  registry: ProviderRegistry;
  cases: ReadonlyMap<string, Case & { hash: string }>;
  gate: GateClient;
}

/** How often a running case tells Temporal its worker is alive. */
export const HEARTBEAT_SECONDS = 2;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Builds the runCase activity: load the case, call the adapter with the contender's gated model, score the reply. */
export function createRunCase(deps: ActivityDeps) {
  const prepared = new Map<string, Promise<void>>();

  const runOnce = async (input: RunCaseInput, attempt: number): Promise<CaseResult | CaseDeferral> => {
    const startedAt = new Date();
    const log: CallLog = { usage: UNKNOWN_USAGE, latency: null, waited: 0 };
    const finish = (fields: Partial<CaseResult> & Pick<CaseResult, 'status'>): CaseResult => {
      const finishedAt = new Date();
      return {
        experimentId: input.experimentId,
        caseKey: input.caseKey,
        attempts: attempt,
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
        ...fields,
      };
    };
    const kase = deps.cases.get(input.caseKey);
    if (!kase) return finish({ status: 'error', error: `this worker has no case ${input.caseKey}` });
    if (kase.hash !== input.caseHash) {
      return finish({
        status: 'error',
        error: `case ${input.caseKey} changed on disk since the run was planned`,
      });
    }
    const provider = deps.registry.get(input.contender.provider);
    if (!provider)
      return finish({ status: 'error', error: `this worker has no provider ${input.contender.provider}` });
    let reply: Reply | undefined;
    let failure: unknown;
    try {
      if (!prepared.has(kase.dataset))
        prepared.set(kase.dataset, Promise.resolve(deps.adapter.prepare(kase.dataset)));
      await prepared.get(kase.dataset);
      reply = await deps.adapter.call(
        kase,
        gatedModel(input.contender, provider, deps.gate, input.runId, log),
      );
    } catch (error) {
      failure = error;
    }
    // The gate's word wins over whatever the adapter made of the call it stopped.
    if (log.control) return { deferred: log.control, caseKey: input.caseKey };
    if (failure instanceof TransportError) {
      if (!failure.verdict.retry)
        return finish({ status: 'error', error: `${failure.message} (${failure.verdict.reason})` });
      throw ApplicationFailure.create({
        type: 'ProviderRetryable',
        message: failure.message,
        ...(failure.verdict.delay !== undefined ? { nextRetryDelay: failure.verdict.delay * 1000 } : {}),
      });
    }
    if (!reply) return finish({ status: 'error', error: `the adapter failed: ${message(failure)}` });
    const usage = reply.usage ?? log.usage;
    const text = { ...capReply(reply.raw), ...(reply.output !== undefined ? { output: reply.output } : {}) };
    if (reply.error !== undefined) {
      const zeros = Object.fromEntries(deps.scorer.metrics().map((m) => [m.name, 0]));
      return finish({ status: 'reply_error', score: 0, metrics: zeros, error: reply.error, usage, ...text });
    }
    try {
      const score = deps.scorer.call(kase, reply, deps.adapter.context(kase));
      const { value, metrics, outcomes = {}, diagnostics = {} } = score;
      return finish({ status: 'scored', score: value, metrics, outcomes, diagnostics, usage, ...text });
    } catch (error) {
      return finish({ status: 'error', error: `the scorer failed: ${message(error)}`, usage, ...text });
    }
  };

  return async function runCase(input: RunCaseInput): Promise<CaseResult | CaseDeferral> {
    const context = Context.current();
    // Heartbeats let Temporal notice a dead worker within the heartbeat timeout and retry the case elsewhere.
    const beat = setInterval(() => context.heartbeat(), HEARTBEAT_SECONDS * 1000);
    try {
      return await runOnce(input, context.info.attempt);
    } finally {
      clearInterval(beat);
    }
  };
}
