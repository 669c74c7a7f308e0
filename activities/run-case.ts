import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Adapter } from '../src/api/adapter.ts';
import type { Scorer } from '../src/api/scorer.ts';
import type { Case, CompletionRequest, Model, ProviderResponse, Reply, Usage } from '../src/api/types.ts';
import type { Contender } from '../src/core/matrix.ts';
import { addUsage, capReply, UNKNOWN_USAGE, type CaseResult } from '../src/core/results.ts';
import { classifyFailure } from '../src/core/retry.ts';
import type { ProviderRegistry } from '../src/providers/registry.ts';

/** What the runCase activity is asked: one case of one experiment, by key and the hash the plan saw. */
export interface RunCaseInput {
  experimentId: string;
  caseKey: string;
  caseHash: string;
  contender: Contender;
}

/** What a worker brings to its activities: the suite's code and cases, loaded in its own process. */
export interface ActivityDeps {
  adapter: Adapter;
  scorer: Scorer;
  registry: ProviderRegistry;
  cases: ReadonlyMap<string, Case & { hash: string }>;
}

/** Marks errors thrown by a provider call, so they retry as transport failures while adapter bugs do not. */
class TransportError extends Error {}

interface CallLog {
  usage: Usage;
  latency: number | null;
}

function modelFor(contender: Contender, deps: ActivityDeps, log: CallLog): Model {
  const provider = deps.registry.get(contender.provider);
  if (!provider) throw new Error(`this worker has no provider ${contender.provider}`);
  const settings = {
    ...(contender.effort !== 'default' ? { effort: contender.effort } : {}),
    ...(contender.temperature !== null ? { temperature: contender.temperature } : {}),
    ...(contender.maxTokens !== null ? { maxTokens: contender.maxTokens } : {}),
  };
  return {
    id: contender.id,
    name: contender.model,
    provider: contender.provider,
    ...settings,
    async complete(request: CompletionRequest): Promise<ProviderResponse> {
      const started = performance.now();
      let response: ProviderResponse;
      try {
        response = await provider.complete({ id: contender.id, name: contender.model, ...settings }, request);
      } catch (error) {
        throw new TransportError(`${contender.provider} ${contender.id}: ${(error as Error).message}`, {
          cause: error,
        });
      }
      log.latency = (log.latency ?? 0) + (performance.now() - started) / 1000;
      log.usage = addUsage(log.usage, response.usage);
      return response;
    },
  };
}

/** The HTTP status and Retry-After seconds a provider's error carries (ProviderError, or any error shaped like it). */
function statusOf(cause: unknown): [number | undefined, number | undefined] {
  const fields = (cause ?? {}) as { status?: unknown; retryAfter?: unknown };
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return [number(fields.status), number(fields.retryAfter)];
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Builds the runCase activity: load the case, call the adapter with the contender's model, score the reply. */
export function createRunCase(deps: ActivityDeps) {
  const prepared = new Map<string, Promise<void>>();
  return async function runCase(input: RunCaseInput): Promise<CaseResult> {
    const startedAt = new Date();
    const base = {
      experimentId: input.experimentId,
      caseKey: input.caseKey,
      attempts: Context.current().info.attempt,
    };
    const finish = (fields: Partial<CaseResult> & Pick<CaseResult, 'status'>, log: CallLog): CaseResult => {
      const finishedAt = new Date();
      return {
        ...base,
        score: null,
        metrics: {},
        outcomes: {},
        diagnostics: {},
        usage: log.usage,
        latency: log.latency,
        duration: (finishedAt.getTime() - startedAt.getTime()) / 1000,
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        ...fields,
      };
    };
    const log: CallLog = { usage: UNKNOWN_USAGE, latency: null };
    const kase = deps.cases.get(input.caseKey);
    if (!kase) return finish({ status: 'error', error: `this worker has no case ${input.caseKey}` }, log);
    if (kase.hash !== input.caseHash) {
      return finish(
        { status: 'error', error: `case ${input.caseKey} changed on disk since the run was planned` },
        log,
      );
    }
    let reply: Reply;
    try {
      if (!prepared.has(kase.dataset))
        prepared.set(kase.dataset, Promise.resolve(deps.adapter.prepare(kase.dataset)));
      await prepared.get(kase.dataset);
      reply = await deps.adapter.call(kase, modelFor(input.contender, deps, log));
    } catch (error) {
      if (error instanceof TransportError) {
        const verdict = classifyFailure(...statusOf(error.cause));
        if (!verdict.retry)
          return finish({ status: 'error', error: `${error.message} (${verdict.reason})` }, log);
        throw ApplicationFailure.create({
          type: 'ProviderRetryable',
          message: error.message,
          ...(verdict.delay !== undefined ? { nextRetryDelay: verdict.delay * 1000 } : {}),
        });
      }
      return finish({ status: 'error', error: `the adapter failed: ${message(error)}` }, log);
    }
    const usage = reply.usage ?? log.usage;
    const text = { ...capReply(reply.raw), ...(reply.output !== undefined ? { output: reply.output } : {}) };
    if (reply.error !== undefined) {
      const zeros = Object.fromEntries(deps.scorer.metrics().map((m) => [m.name, 0]));
      return finish(
        { status: 'reply_error', score: 0, metrics: zeros, error: reply.error, usage, ...text },
        log,
      );
    }
    try {
      const score = deps.scorer.call(kase, reply, deps.adapter.context(kase));
      return finish(
        {
          status: 'scored',
          score: score.value,
          metrics: score.metrics,
          outcomes: score.outcomes ?? {},
          diagnostics: score.diagnostics ?? {},
          usage,
          ...text,
        },
        log,
      );
    } catch (error) {
      return finish({ status: 'error', error: `the scorer failed: ${message(error)}`, usage, ...text }, log);
    }
  };
}
