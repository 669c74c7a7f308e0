import { join } from 'node:path';
import type { CaseResult } from '../../src/core/results.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { workflowBundle } from '../../src/client/bundle.ts';
import { completion, userText, type Answer, type Received } from '../providers/chat-server.ts';
import { JsonServer } from './json-server.ts';
import { REPO } from './suite-dir.ts';

/** One chat completion as the fault server saw it: when its body arrived, for which model and case, and what it got. */
export interface Hit {
  /** When the request's body had arrived (ms since the epoch). */
  t: number;
  /** The model name the request named (an endpoint section's model, without the section). */
  model: string;
  /** The user text: the toy adapter sends the case's expected JSON, so it tells the cases apart. */
  user: string;
  /** The Authorization header, when the endpoint has a key: tells apart workers given different keys. */
  auth?: string;
  /** The status answered, or `drop` when the socket was destroyed without an answer. */
  status: number | 'drop';
}

/** How one model answers its `n`-th request (from 0): a fault, or `undefined` to echo the user text (a right answer). */
export type Rule = (n: number, request: Received) => Answer | undefined;

/** A rule answering `faults` in order to a model's first requests, then echoing. */
export function first(...faults: Answer[]): Rule {
  return (n) => faults[n];
}

/** A rule answering every request of a model with `fault`. */
export function always(fault: Answer): Rule {
  return () => fault;
}

/**
 * A chat-completions server on 127.0.0.1 that injects faults per model and records every completion with its time:
 * the numbers the pressure tests assert on are the ones measured here, at the server, not what the CLI says.
 * A model without a rule, or a rule that says nothing, is answered right (the user text echoed back).
 */
export class FaultServer {
  readonly hits: Hit[] = [];
  private readonly seen = new Map<string, number>();
  private server?: JsonServer;
  private port = 0;

  constructor(private readonly rules: Record<string, Rule> = {}) {}

  /** Starts listening on a free port and returns the base URL (`http://127.0.0.1:PORT/v1`). */
  async start(): Promise<string> {
    this.server = new JsonServer((request, t) => {
      if (request.path !== '/chat/completions') return { status: 404, body: {} };
      const model = String(request.body.model);
      const n = this.seen.get(model) ?? 0;
      this.seen.set(model, n + 1);
      const answer = this.rules[model]?.(n, request) ?? completion(userText(request));
      const auth = request.headers.authorization;
      const status = answer.drop ? 'drop' : (answer.status ?? 200);
      this.hits.push({ t, model, user: userText(request), ...(auth ? { auth } : {}), status });
      return answer;
    });
    const url = await this.server.listen(this.port);
    this.port = Number(new URL(url).port);
    return `${url}/v1`;
  }

  /**
   * A provider restarting: closes the server and every connection it holds (the calls in flight are reset), refuses
   * connections for `ms`, then listens again on the same port.
   */
  async restart(ms: number): Promise<void> {
    await this.server?.close();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await this.server?.listen(this.port);
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }

  /** The completions for `model`, in the order they arrived. */
  of(model: string): Hit[] {
    return this.hits.filter((h) => h.model === model);
  }
}

/** The gaps between consecutive hits, in seconds. */
export function gaps(hits: readonly Hit[]): number[] {
  return hits.slice(1).map((h, i) => (h.t - hits[i]!.t) / 1000);
}

/** A snapshot's results grouped by the model name a server sees (the contender's `model`), in result order. */
export function resultsByModel(snapshot: Snapshot): Map<string, CaseResult[]> {
  const contenders = new Map(snapshot.contenders.map((c) => [c.key, c.model]));
  const model = new Map(snapshot.experiments.map((e) => [e.id, contenders.get(e.contender)!]));
  const grouped = new Map<string, CaseResult[]>();
  for (const result of snapshot.results) {
    const name = model.get(result.experimentId)!;
    grouped.set(name, [...(grouped.get(name) ?? []), result]);
  }
  return grouped;
}

/** Where {@link warmCache} keeps its folder. */
export const WARM_CACHE = join(REPO, 'tmp', 'pressure-cache');

/**
 * A folder for the CLI's caches (`XDG_CACHE_HOME`) shared by the pressure tests, with the workflow bundle already built
 * in it, so CLI processes started together neither build it each (seconds apiece) nor race to write it.
 */
export async function warmCache(): Promise<string> {
  // Another test process may build it at the same moment: each writes through a temporary name of its own.
  await workflowBundle(join(REPO, 'workflows', 'index.ts'), { XDG_CACHE_HOME: WARM_CACHE });
  return WARM_CACHE;
}
