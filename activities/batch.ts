import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { completionRequestOf } from '../src/api/conversation.ts';
import type { ScorerTools } from '../src/api/scorer.ts';
import type { Case, CompletionRequest, Model, ModelRequest, ProviderResponse } from '../src/api/types.ts';
import type { Contender } from '../src/core/matrix.ts';
import { UNKNOWN_USAGE } from '../src/core/results.ts';
import {
  BATCH_CANNOT_SERVE,
  cannotServeDelay,
  DEFAULT_BATCH_POLL,
  parseBatchPoll,
} from '../src/core/batch.ts';
import { reachBatchApi, type BatchStatus } from '../src/providers/batch.ts';
import { missingTeller, type CaseDeps } from './case-runner.ts';
import { createPlanCases, type PlanCases } from './plan-cases.ts';
import type { ExperimentCases } from '../src/core/run-input.ts';
import { replyKeyOf } from '../src/cache/key.ts';
import { gatedModel, type CallLog } from './gated-model.ts';
import type { MissingKey } from '../src/core/missing-key.ts';

/** One round of an experiment's batch: which run, experiment and round, the contender and the cases to collect. */
export interface BatchRoundTask {
  runId: string;
  experimentId: string;
  dataset: string;
  contender: Contender;
  round: number;
  /** The experiment's cases: listed (a run before the plan store), or its plan's reference and how many. */
  cases?: [key: string, hash: string][];
  plan?: ExperimentCases;
  total?: number;
}

/** What a round sent: the batch (none when every request already had its reply) and how many requests it holds. */
export interface SubmittedBatch {
  batchId?: string;
  requests: number;
  /** False when the batch was made by an earlier attempt of this round (found by its metadata), not by this one. */
  created?: boolean;
  /** Seconds since the epoch at which the provider made it. */
  createdAt?: number;
  expiresAt?: number;
}

/** A batch to look at, cancel or read: the provider it lives at and its id. */
export interface BatchRef {
  provider: string;
  batchId: string;
}

/** What reading an ended batch put in the reply cache, and the requests that got no reply (with the first reasons). */
export interface ReceivedBatch {
  replies: number;
  failed: number;
  reasons: string[];
}

/** Thrown by the recording model instead of calling: the request waits for its batch. */
class Deferred extends Error {}

/** How many adapters a round runs at once while it collects their requests: they call nothing, so many. */
const COLLECTING = 32;

/**
 * The batch API of the provider `name`, when this worker can reach it. A worker that knows no such endpoint, whose
 * endpoint has no batch API, or that lacks its key makes no request: it tells the run's gate (when the activity
 * names its run and contender, so that `status` says why the run waits) and fails the activity as BATCH_CANNOT_SERVE,
 * which Temporal tries again after cannotServeDelay, on whichever worker takes it next, as a pool hands its cases
 * back for a worker that can call them. Its attempts count: when every one met such a worker, the experiment
 * schedules the activity again.
 */
async function reach(
  deps: Pick<CaseDeps, 'registry' | 'env'>,
  name: string,
  tell: (runId: string, missing: MissingKey) => Promise<void>,
  task?: { runId: string; contender: Contender },
) {
  const env = deps.env ?? process.env;
  const reached = reachBatchApi(deps.registry, name, env);
  if (reached.found) return reached;
  const envVar = reached.missing === 'key' ? reached.envVar : undefined;
  if (task) {
    const contender = task.contender.id;
    await tell(task.runId, envVar ? { envVar, contender } : { provider: name, contender });
  }
  const why = envVar
    ? `${envVar} is not set in this worker's environment`
    : reached.missing === 'batchApi'
      ? `this worker's endpoint ${name} has no batch API (no \`batch: true\`)`
      : `this worker knows no provider ${name}`;
  const first = (parseBatchPoll(env.LLM_EVALS_BATCH_POLL) ?? DEFAULT_BATCH_POLL)[0];
  throw ApplicationFailure.create({
    type: BATCH_CANNOT_SERVE,
    message: `${why}: the batch at ${name} waits for a worker that can reach it`,
    nextRetryDelay: cannotServeDelay(Context.current().info.attempt, first) * 1000,
  });
}

/**
 * Builds the batch activities: a round's submit (the adapters run with a model that answers from the reply cache or
 * records the request and defers; the requests go out as one batch tagged with run, experiment and round), a look at
 * a batch, its replies written into the reply cache at the batch price, and a cancel.
 */
export function createBatchActivities(deps: CaseDeps & { plans?: PlanCases }) {
  const plans = deps.plans ?? createPlanCases(deps);
  const prepared = new Map<string, Promise<void>>();
  const tell = missingTeller(deps.gate);
  return {
    submitBatch: async (task: BatchRoundTask): Promise<SubmittedBatch> => {
      const { provider, api } = await reach(deps, task.contender.provider, tell, task);
      const log: CallLog = { usage: UNKNOWN_USAGE, latency: null, waited: 0 };
      // Built like the pool's, so a request's key here is the key the pool looks its reply up by.
      const gated = gatedModel(
        task.contender,
        deps.registry.get(task.contender.provider)!,
        deps.gate,
        task.runId,
        log,
        1,
      );
      /** A model that answers from the reply cache or records the request (into the case's own list) and defers. */
      const recording = (into: Map<string, object>): Model => ({
        ...gated,
        complete: async (request: CompletionRequest): Promise<ProviderResponse> => {
          const key = replyKeyOf(gated, task.contender, deps.registry.get(task.contender.provider)!, request);
          const entry = await deps.replies?.get(key);
          if (entry) return entry.response;
          into.set(key, provider.requestBody(gated, request));
          throw new Deferred(key);
        },
      });
      /**
       * The judge's round after the answers' round: a judge model the same provider serves records its verdict's
       * request into the same batch, keyed as the pool's judge looks it up; a judge elsewhere is called by the pool.
       */
      const judging = (into: Map<string, Map<string, object>>): ScorerTools => ({
        judge: (id, sample) => {
          const judge = deps.judges?.get(id);
          if (!judge || judge.provider !== task.contender.provider) throw new Deferred(id);
          const contender = { ...judge, repeat: sample };
          const model = gatedModel(
            contender,
            deps.registry.get(judge.provider)!,
            deps.gate,
            task.runId,
            log,
            1,
          );
          return {
            ...model,
            complete: async (asked: ModelRequest): Promise<ProviderResponse> => {
              const request = completionRequestOf(asked);
              const key = replyKeyOf(model, contender, deps.registry.get(judge.provider)!, request);
              const entry = await deps.replies?.get(key);
              if (entry) return entry.response;
              const bodies = into.get(id) ?? new Map<string, object>();
              into.set(id, bodies.set(key, provider.requestBody(model, request)));
              throw new Deferred(key);
            },
          };
        },
      });
      type Made = { answers: Map<string, object>; verdicts: Map<string, Map<string, object>> };
      const runAdapter = async (kase: Case, into: Made) => {
        if (!prepared.has(kase.dataset))
          prepared.set(kase.dataset, Promise.resolve(deps.adapter.prepare(kase.dataset)));
        await prepared.get(kase.dataset);
        // Its reply is of no use here but to the judge: what counts is the request it made, or that it made none.
        const reply = await deps.adapter.call(kase, recording(into.answers));
        // Every answer of the case is in: its verdicts go in the next batch (none without a judge in the run).
        if (deps.judges?.size && reply.error === undefined)
          await deps.scorer.call(kase, reply, deps.adapter.context(kase), judging(into.verdicts));
      };
      const listed =
        task.cases ?? Array.from({ length: task.total ?? 0 }, (_, index) => plans.caseAt(task.plan!, index));
      const cases = listed.flatMap(([key, hash]) => {
        const kase = deps.cases.get(key);
        // A case missing or changed on disk is the pool's to report, as in any run.
        return kase && kase.hash === hash ? [kase] : [];
      });
      // Each case records into its own list, so the batch holds the requests in case order, whichever adapter
      // finished first: a later round's batch is then the earlier one's order less what was answered.
      const answers = new Map<string, object>();
      const verdicts = new Map<string, Map<string, object>>();
      for (let i = 0; i < cases.length; i += COLLECTING) {
        const made = cases.slice(i, i + COLLECTING).map(() => ({
          answers: new Map<string, object>(),
          verdicts: new Map<string, Map<string, object>>(),
        }));
        await Promise.all(
          cases.slice(i, i + COLLECTING).map((kase, j) => runAdapter(kase, made[j]!).catch(() => undefined)),
        );
        for (const one of made) {
          for (const [key, body] of one.answers) answers.set(key, body);
          for (const [model, bodies] of one.verdicts) {
            const all = verdicts.get(model) ?? new Map<string, object>();
            for (const [key, body] of bodies) all.set(key, body);
            verdicts.set(model, all);
          }
        }
      }
      // One model per batch, as OpenAI's Batch API asks: the answers first, then each judge model's verdicts in a
      // round of their own; what the rounds leave unsent the pool calls.
      const requests = answers.size ? answers : ([...verdicts.values()][0] ?? new Map<string, object>());
      if (!requests.size) return { requests: 0 };
      const tag = { run: task.runId, experiment: task.experimentId, round: String(task.round) };
      const lines = [...requests].map(([customId, body]) => ({ customId, body }));
      const { batch, created } = await api.submit(lines, tag);
      return {
        batchId: batch.id,
        requests: batch.total || lines.length,
        created,
        ...(batch.createdAt !== undefined ? { createdAt: batch.createdAt } : {}),
        ...(batch.expiresAt !== undefined ? { expiresAt: batch.expiresAt } : {}),
      };
    },

    pollBatch: async (ref: BatchRef): Promise<BatchStatus> => {
      return (await reach(deps, ref.provider, tell)).api.retrieve(ref.batchId);
    },

    cancelBatch: async (ref: BatchRef): Promise<BatchStatus> => {
      return (await reach(deps, ref.provider, tell)).api.cancel(ref.batchId);
    },

    receiveBatch: async (ref: BatchRef & { runId: string; contender: Contender }): Promise<ReceivedBatch> => {
      const { provider, api } = await reach(deps, ref.provider, tell, ref);
      const log: CallLog = { usage: UNKNOWN_USAGE, latency: null, waited: 0 };
      const model = gatedModel(ref.contender, deps.registry.get(ref.provider)!, deps.gate, '', log, 1);
      const lines = await api.results(await api.retrieve(ref.batchId));
      // A judge round's verdicts are priced as the judge model, not as the contender whose experiment sent them.
      const judgeOf = (body: unknown) => {
        const name = (body as { model?: unknown } | null)?.model;
        return [...(deps.judges?.values() ?? [])].find(
          (j) => j.provider === ref.provider && j.model === name,
        );
      };
      const modelOf = (body: unknown) => {
        const judge = judgeOf(body);
        return judge ? gatedModel(judge, deps.registry.get(ref.provider)!, deps.gate, '', log, 1) : model;
      };
      const received: ReceivedBatch = { replies: 0, failed: 0, reasons: [] };
      const share = 1 - provider.batchDiscount;
      for (const line of lines) {
        if (line.body === undefined || line.error !== undefined) {
          received.failed++;
          if (received.reasons.length < 3) received.reasons.push(line.error ?? 'no reply');
          continue;
        }
        let response: ProviderResponse;
        try {
          response = await provider.responseOf(modelOf(line.body), line.body as ChatCompletion);
        } catch (error) {
          received.failed++;
          if (received.reasons.length < 3) received.reasons.push((error as Error).message);
          continue;
        }
        const { costUsd } = response.usage;
        const usage = { ...response.usage, costUsd: costUsd === null ? null : costUsd * share };
        await deps.replies?.put({
          version: 1,
          key: line.customId,
          storedAt: new Date().toISOString(),
          provider: ref.provider,
          model: judgeOf(line.body)?.id ?? ref.contender.id,
          response: { ...response, usage },
          // A batch's requests have no latency of their own: the provider ran them when it chose.
          latency: null,
          batchRun: ref.runId,
          batchId: ref.batchId,
        });
        received.replies++;
      }
      return received;
    },
  };
}
