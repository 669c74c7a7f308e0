import { z } from 'zod';
import type { Summary } from '../core/aggregate.ts';
import { braintrustRow, type BraintrustRow } from './braintrust-row.ts';
import { parseSection } from './section.ts';
import type { CaseRecord, ExperimentInfo, Tracker, TrackerContext, TrackerDefinition } from './types.ts';

/** Braintrust's API for its US data plane; `BRAINTRUST_API_URL` names another (EU, self-hosted, a test server). */
export const BRAINTRUST_API_URL = 'https://api.braintrust.dev';

/** Rows sent per insert: thousands of cases go in several requests. */
const BATCH = 100;

/** How long one API call may take before the experiment is reported as failed. */
const TIMEOUT_MS = 30_000;

const IdSchema = z.object({ id: z.string().min(1) });
const InsertSchema = z.object({ row_ids: z.array(z.string()) });
const SummarySchema = z.object({ experiment_url: z.string() });

/** Why a call failed, with the socket's own reason (`connect ECONNREFUSED …`) rather than fetch's `fetch failed`. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

class BraintrustTracker implements Tracker {
  readonly name = 'braintrust';
  private project?: Promise<string>;
  /** The Braintrust experiment of each run, by run id. */
  private readonly experiments = new Map<string, Promise<string>>();
  /** Each started experiment and its rows not yet sent, by experiment id. */
  private readonly open = new Map<string, { info: ExperimentInfo; rows: BraintrustRow[] }>();

  constructor(
    private readonly apiUrl: string,
    private readonly apiKey: string,
    private readonly context: TrackerContext,
  ) {}

  enabled(): boolean {
    return true;
  }

  /** Creates the run's experiment, or finds it: Braintrust answers a known name with the experiment it has. */
  async start(e: ExperimentInfo): Promise<void> {
    this.open.set(e.experimentId, { info: e, rows: [] });
    await this.experimentOf(e);
  }

  async record(r: CaseRecord): Promise<void> {
    const open = this.open.get(r.experimentId);
    if (!open) throw new Error(`braintrust: experiment ${r.experimentId} was not started`);
    open.rows.push(braintrustRow(open.info, r));
    if (open.rows.length >= BATCH) await this.flush(open.info, open.rows);
  }

  async finish(e: ExperimentInfo, _summary: Summary): Promise<{ url?: string }> {
    const rows = this.open.get(e.experimentId)?.rows ?? [];
    this.open.delete(e.experimentId);
    await this.flush(e, rows);
    const id = await this.experimentOf(e);
    const summary = await this.call(
      'GET',
      `/v1/experiment/${id}/summarize?summarize_scores=false`,
      SummarySchema,
    );
    return { url: summary.experiment_url };
  }

  private experimentOf(e: ExperimentInfo): Promise<string> {
    let id = this.experiments.get(e.runId);
    if (!id) {
      id = this.projectId().then(async (projectId) => {
        const body = { project_id: projectId, name: e.runId, metadata: { suite: e.suite, run_id: e.runId } };
        return (await this.call('POST', '/v1/experiment', IdSchema, body)).id;
      });
      // A failed creation is not remembered: the next experiment of the run tries again.
      id.catch(() => this.experiments.delete(e.runId));
      this.experiments.set(e.runId, id);
    }
    return id;
  }

  private projectId(): Promise<string> {
    const given = this.context.projectId ?? this.context.env.BRAINTRUST_PROJECT_ID?.trim();
    if (given) return Promise.resolve(given);
    return (this.project ??= this.call('POST', '/v1/project', IdSchema, { name: this.context.project }).then(
      (p) => p.id,
      (error: unknown) => {
        this.project = undefined;
        throw error;
      },
    ));
  }

  private async flush(e: ExperimentInfo, rows: BraintrustRow[]): Promise<void> {
    while (rows.length > 0) {
      const batch = rows.slice(0, BATCH);
      const id = await this.experimentOf(e);
      await this.call('POST', `/v1/experiment/${id}/insert`, InsertSchema, { events: batch });
      rows.splice(0, batch.length);
    }
  }

  private async call<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const what = `braintrust: ${method} ${path.split('?')[0]}`;
    let response: Response;
    try {
      response = await fetch(`${this.apiUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.apiKey}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`${what} failed: ${reasonOf(error)}`, { cause: error });
    }
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${what} answered ${response.status}: ${text.slice(0, 200) || response.statusText}`);
    }
    const parsed = schema.safeParse(parseJson(text));
    if (!parsed.success) throw new Error(`${what} answered something unexpected: ${text.slice(0, 200)}`);
    return parsed.data;
  }
}

/** The braintrust tracker, over Braintrust's HTTP API: one experiment per run named by its id, one row per case. */
export const braintrustTracker: TrackerDefinition = {
  name: 'braintrust',
  envKey: 'BRAINTRUST_API_KEY',
  packages: [],
  create(context: TrackerContext): Tracker {
    parseSection('braintrust', z.strictObject({}), context);
    const apiUrl = (context.env.BRAINTRUST_API_URL?.trim() || BRAINTRUST_API_URL).replace(/\/+$/, '');
    return new BraintrustTracker(apiUrl, context.env.BRAINTRUST_API_KEY?.trim() ?? '', context);
  },
};
