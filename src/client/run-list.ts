import { Client, type Connection } from '@temporalio/client';
import { ClosableConnection } from './closable-connection.ts';
import { runStateOf, type RunState } from '../core/run-state.ts';
import { listingClient } from './codec.ts';

/** A run as `runs` lists it, from visibility alone. */
export interface RunListing {
  runId: string;
  suite: string;
  status: string;
  /** The run's state: its `LlmEvalsState` once it ended (`regressed`, `aborted`…), else from Temporal's status. */
  state: RunState;
  startedAt: Date;
  closedAt?: Date;
  /** The project folder it was started from (`LlmEvalsProject`), when it was tagged with one. */
  project?: string;
  /** The id of the schedule that started it (`LlmEvalsSchedule`), if one did. */
  scheduleId?: string;
}

/** Which runs a listing keeps: those of a project, a suite or a schedule, and how many at most. */
export interface RunFilter {
  project?: string;
  suite?: string;
  scheduleId?: string;
  limit?: number;
}

/** A search attribute's value as visibility gives it (a list of one string), or '' when it has none. */
const first = (value: unknown) => (Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '');

/** A value quoted for a visibility query. */
const quote = (value: string) => `'${value.replaceAll("'", "\\'")}'`;

/** Runs found through visibility, newest first; the filter keeps those that match. */
export async function* listRuns(client: Client, filter: RunFilter = {}): AsyncGenerator<RunListing> {
  const where = [`WorkflowType = 'compareRun'`, `ExecutionStatus != 'ContinuedAsNew'`];
  if (filter.project) where.push(`LlmEvalsProject = ${quote(filter.project)}`);
  if (filter.suite) where.push(`LlmEvalsSuite = ${quote(filter.suite)}`);
  if (filter.scheduleId) where.push(`LlmEvalsSchedule = ${quote(filter.scheduleId)}`);
  let count = 0;
  // A page no bigger than asked: the server's default page is 1,000 runs, decoded before the first is yielded.
  const pageSize = filter.limit ? Math.min(filter.limit, 1000) : undefined;
  for await (const run of listingClient(client).workflow.list({
    query: where.join(' AND '),
    ...(pageSize ? { pageSize } : {}),
  })) {
    const project = first(run.searchAttributes?.LlmEvalsProject);
    const scheduleId = first(run.searchAttributes?.LlmEvalsSchedule);
    yield {
      runId: first(run.searchAttributes?.LlmEvalsRunId),
      suite: first(run.searchAttributes?.LlmEvalsSuite),
      status: run.status.name,
      state: runStateOf(run.status.name, first(run.searchAttributes?.LlmEvalsState)),
      startedAt: run.startTime,
      ...(run.closeTime ? { closedAt: run.closeTime } : {}),
      ...(project ? { project } : {}),
      ...(scheduleId ? { scheduleId } : {}),
    };
    if (++count >= (filter.limit ?? Number.POSITIVE_INFINITY)) return;
  }
}

/** A run still going on a server, as visibility names it: its id, suite and project. */
export interface RunInFlight {
  runId: string;
  suite: string;
  project: string;
}

/**
 * The runs still going on the server at `address` (every project's), for `server stop` to name before it pulls the
 * server from under them; empty when the server does not answer within `timeoutMs`.
 */
export async function runsInFlightAt(address: string, timeoutMs = 3000): Promise<RunInFlight[]> {
  let connection: Connection | undefined;
  try {
    connection = await ClosableConnection.connect({ address, connectTimeout: timeoutMs });
    const client = listingClient(new Client({ connection }));
    const query = `WorkflowType = 'compareRun' AND ExecutionStatus = 'Running'`;
    const found: RunInFlight[] = [];
    await connection.withDeadline(Date.now() + timeoutMs, async () => {
      for await (const run of client.workflow.list({ query })) {
        const attributes = run.searchAttributes ?? {};
        found.push({
          runId: first(attributes.LlmEvalsRunId) || run.workflowId,
          suite: first(attributes.LlmEvalsSuite),
          project: first(attributes.LlmEvalsProject),
        });
      }
    });
    return found;
  } catch {
    return [];
  } finally {
    await connection?.close();
  }
}
