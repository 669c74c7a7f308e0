import { completionRequestOf } from '../src/api/conversation.ts';
import type {
  CompletionRequest,
  Model,
  ModelRequest,
  Provider,
  ProviderResponse,
  ToolResultLog,
} from '../src/api/types.ts';
import type { Contender } from '../src/core/matrix.ts';
import type { CacheMode } from '../src/core/plan.ts';
import { addUsage, type CaseResult } from '../src/core/results.ts';
import { replyKeyOf } from '../src/cache/key.ts';
import { SingleFlight } from '../src/cache/single-flight.ts';
import type { ReplyEntry } from '../src/cache/store.ts';
import type { CallLog } from './gated-model.ts';

/** How a worker's calls reach the reply cache: its entries, and how each run uses it. */
export interface ReplyCache {
  get(key: string): Promise<ReplyEntry | undefined>;
  put(entry: ReplyEntry): Promise<void>;
  /** The run's cache mode; absent (a run that names none) calls everything and keeps the replies. */
  modeOf(runId: string): Promise<CacheMode | undefined>;
  /** Told when an entry could not be written (a full disk): the run's results are in Temporal all the same. */
  writeFailed?(error: unknown): void;
  /** The worker's calls in flight by key, so that the same request asked twice at once is paid once. */
  flights?: SingleFlight<ReplyEntry>;
}

/** What one case's calls took from the cache: replies, calls made, the cost paid, and whether `--cache-only` lacked one. */
export interface CacheLog {
  replies: number;
  calls: number;
  paidUsd: number;
  skipped?: boolean;
  /** The runs that paid for the replies found, where their entries say. */
  runs?: string[];
  /** Calls this run's own batches answered, and the batches (where their entries say). */
  batched?: { calls: number; ids: string[] };
}

const add = (list: string[] | undefined, item: string | undefined): string[] =>
  item === undefined || list?.includes(item) ? (list ?? []) : [...(list ?? []), item];

/** Thrown instead of calling under `--cache-only` when the cache has no reply for the request. */
export class CacheMiss extends Error {}

/** What a case result says of its cached replies (nothing when none came from the cache). */
export function cacheFields(log: CacheLog): Pick<CaseResult, 'cached' | 'batch'> {
  const { replies, calls, paidUsd, runs, batched } = log;
  return {
    ...(replies > 0 ? { cached: { replies, calls, paidUsd, ...(runs?.length ? { runs } : {}) } } : {}),
    ...(batched ? { batch: batched } : {}),
  };
}

/** The error a case `--cache-only` skipped records. */
export const SKIPPED_NOTE = 'no reply in the cache (--cache-only)';

/**
 * An agent's tool results kept in the reply cache beside the step whose reply called them, keyed by that step's
 * request and the call's id: written (atomically, as every entry) the moment the tool returns, read back by a resumed
 * case so that no finished step runs its tools again. `--no-cache` reads none; `--cache-only` runs a tool it lacks.
 */
function toolResultLog(
  gated: Model,
  contender: Contender,
  provider: Provider,
  runId: string,
  cache: ReplyCache,
): ToolResultLog {
  const keyOf = (asked: ModelRequest, callId: string) =>
    replyKeyOf(gated, contender, provider, completionRequestOf(asked), callId);
  return {
    get: async (asked, callId) => {
      const mode = (await cache.modeOf(runId).catch(() => undefined)) ?? 'refresh';
      if (mode === 'refresh') return undefined;
      const entry = await cache.get(keyOf(asked, callId));
      const status = (entry?.response.raw as { toolStatus?: unknown } | undefined)?.toolStatus;
      return entry && (status === 'ok' || status === 'error')
        ? { status, result: entry.response.text }
        : undefined;
    },
    put: async (asked, callId, run) => {
      const entry: ReplyEntry = {
        version: 1,
        key: keyOf(asked, callId),
        storedAt: new Date().toISOString(),
        provider: provider.name,
        model: contender.id,
        response: {
          text: run.result,
          usage: { inputTokens: null, outputTokens: null, costUsd: null },
          raw: { toolStatus: run.status, toolCallId: callId },
        },
        latency: null,
        run: runId,
      };
      await cache.put(entry).catch((error: unknown) => cache.writeFailed?.(error));
    },
  };
}

/**
 * The adapter's model with the reply cache before the gate: a request it holds a reply for is answered from it (no
 * rate-limit slot, no place in flight, no retry), else the gated model calls and a reply is kept. A failed call throws
 * through and is never kept; a cut reply is a reply, kept with its mark. The same request asked again in this worker
 * while its call is in flight (`--pairwise` B's round asking for A's answer as A's experiment does) waits for that
 * call's reply, found as the cache's would be, rather than paying it twice.
 */
export function cachedModel(
  gated: Model,
  contender: Contender,
  provider: Provider,
  runId: string,
  cache: ReplyCache | undefined,
  log: CallLog,
  hits: CacheLog,
): Model {
  if (!cache) return gated;
  /** Counts a reply the cache gave (or a call in flight shared) as this case's. */
  const found = (entry: ReplyEntry): ProviderResponse => {
    if (entry.batchRun === runId) {
      // This run's own batch paid for it: a call made, at the batch price, not a reply found.
      hits.calls++;
      hits.paidUsd += entry.response.usage.costUsd ?? 0;
      hits.batched = {
        calls: (hits.batched?.calls ?? 0) + 1,
        ids: add(hits.batched?.ids, entry.batchId),
      };
    } else {
      hits.replies++;
      hits.runs = add(hits.runs, entry.batchRun ?? entry.run);
      log.latency = (log.latency ?? 0) + (entry.latency ?? 0);
    }
    log.usage = addUsage(log.usage, entry.response.usage);
    if (entry.response.truncated) log.truncated = true;
    return entry.response;
  };
  /** Calls through the gate and keeps the reply. */
  const pay = async (key: string, request: CompletionRequest): Promise<ReplyEntry> => {
    const before = log.latency ?? 0;
    hits.calls++;
    const response = await gated.complete(request);
    hits.paidUsd += response.usage.costUsd ?? 0;
    const entry: ReplyEntry = {
      version: 1,
      key,
      storedAt: new Date().toISOString(),
      provider: provider.name,
      model: contender.id,
      response,
      latency: (log.latency ?? 0) - before,
      run: runId,
    };
    await cache.put(entry).catch((error: unknown) => cache.writeFailed?.(error));
    return entry;
  };
  return {
    ...gated,
    toolResults: toolResultLog(gated, contender, provider, runId, cache),
    complete: async (asked: ModelRequest): Promise<ProviderResponse> => {
      // Keyed by the request as the provider gets it: the whole conversation and its tools are part of the key.
      const request = completionRequestOf(asked);
      const mode = (await cache.modeOf(runId).catch(() => undefined)) ?? 'refresh';
      const key = replyKeyOf(gated, contender, provider, request);
      // `--no-cache` asks for every call to be made: nothing found, nothing shared.
      if (mode === 'refresh') return (await pay(key, request)).response;
      let answered: ProviderResponse | undefined;
      const ask = async (): Promise<ReplyEntry> => {
        const entry = await cache.get(key);
        if (entry) {
          answered = found(entry);
          return entry;
        }
        if (mode === 'only') {
          hits.skipped = true;
          throw new CacheMiss(`${contender.provider} ${contender.id}: ${SKIPPED_NOTE}`);
        }
        const paid = await pay(key, request);
        answered = paid.response;
        return paid;
      };
      if (!cache.flights) return (await ask()).response;
      const { value, shared } = await cache.flights.run(key, ask);
      return shared ? found(value) : (answered ?? value.response);
    },
  };
}

/** What a worker's reply cache reads a run's cache mode from: the run's header, as its command started it. */
export interface RunHeaders {
  inputOf(runId: string): Promise<{ header: { settings: { cache?: CacheMode } } }>;
}

/** A worker's reply cache over a store: each run's mode read once from its header. */
export function replyCache(
  store: Pick<ReplyCache, 'get' | 'put'>,
  runs: RunHeaders,
  writeFailed?: (error: unknown) => void,
): ReplyCache {
  const modes = new Map<string, Promise<CacheMode | undefined>>();
  return {
    get: (key) => store.get(key),
    put: (entry) => store.put(entry),
    flights: new SingleFlight<ReplyEntry>(),
    modeOf: (runId) => {
      let mode = modes.get(runId);
      if (!mode) {
        mode = runs.inputOf(runId).then(({ header }) => header.settings.cache);
        modes.set(runId, mode);
        // A read that failed (the server away) is tried again by the next call rather than kept.
        void mode.catch(() => modes.delete(runId));
      }
      return mode;
    },
    ...(writeFailed ? { writeFailed } : {}),
  };
}
