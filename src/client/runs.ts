// Runs is the one door of every client-side operation on a run (start, read, query, signal, cancel), so that commands
// never hold a workflow handle or spell a workflow id. It keeps what this process knows of its own runs and reads the
// rest; the work stands beside it by concern: the start (run-start.ts), progress (run-progress.ts), the gate
// (run-gate.ts), results (run-results.ts), listing (run-list.ts) and the wait after a cancel (cancel-wait.ts).
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { GateState } from '../core/coordinator.ts';
import type { SentBatch } from '../core/batch-cancel.ts';
import type { BatchWait, RunProgress } from '../core/progress.ts';
import type { CaseResult } from '../core/results.ts';
import { digestOf, type RunDigest } from '../core/run-change.ts';
import { casesOf, runWorkflowId, type PlannedCases, type RunInput } from '../core/run-input.ts';
import { plansDir, PlanStore } from '../cache/plans.ts';
import { runStateOf, type RunState } from '../core/run-state.ts';
import { buildSnapshot, RunHeaderSchema, type RunHeader } from '../core/snapshot.ts';
import { VERSION } from '../package-root.ts';
import type { RunResult } from '../../workflows/compare-run.ts';
import { noSuchRun } from './run-errors.ts';
import { answerPause, endGate, finalGate, gateClosed, gateNow } from './run-gate.ts';
import { batchWaits, runProgress, sentBatches } from './run-progress.ts';
import { startRun } from './run-start.ts';
import { waitForCancelled, type CancelWaited, type CancelWaitOptions } from './cancel-wait.ts';
import { polledWithin } from '../core/cancel-wait.ts';
import { pollTimesOf } from './pollers.ts';
import { ExperimentResults } from './run-results.ts';
import { listRuns, type RunFilter, type RunListing } from './run-list.ts';
import { payloadValue } from './payload-value.ts';
import { buildOnQueue, buildPollers, pinnedBuildOf, type Build } from './versioning.ts';

export type { RunResult };
export type { RunListing } from './run-list.ts';

/** A run as Temporal holds it: its input, header and state. */
export interface RunRecord {
  input: RunInput;
  header: RunHeader;
  /** The llm-evals that started it (undefined: 0.1.0, which did not record it). */
  startedBy?: string;
  /** Temporal's status of the run workflow: RUNNING, COMPLETED, FAILED, CANCELLED, TERMINATED, TIMED_OUT. */
  status: string;
  closed: boolean;
  /** The task queue its workers poll: the suite's, or one of its own for a `compare`'s in-process worker. */
  taskQueue: string;
  startedAt: Date;
  closedAt?: Date;
  /** The build its workflows are pinned to, when it was started with Worker Versioning on. */
  build?: Build;
}

/** A run this process started: what it was given, where, and, once it completed, what it returned and when. */
interface StartedHere {
  input: RunInput;
  header: RunHeader;
  taskQueue: string;
  startedAt: Date;
  completed?: { result: RunResult; at: Date };
}

/**
 * Every client-side Temporal operation on runs — start, describe, query, signal, cancel, list, results — so that
 * commands never hold a workflow handle or spell a workflow id. Workflow ids all derive from the run id.
 */
export class Runs {
  /**
   * The runs this process started, once keepClosedResults() was called: what they were given, and what they
   * returned once closed() saw them complete.
   */
  private startedHere: Map<string, StartedHere> | undefined;
  /**
   * The last plan read, by digest (null: not on this machine): `status` and a snapshot read the same plan. Held only
   * while something else holds it, and read again after: a snapshot keeps the keys and hashes it needs, and the plan's
   * lists of pairs held on until the command ended (6.5 MB at 100,000 cases).
   */
  private lastPlan: { digest: string; cases: WeakRef<PlannedCases> | null } | undefined;
  private readonly planStore = new PlanStore(plansDir());

  /** The experiments' results, read from their histories, kept and followed as keepClosedResults() and follow() say. */
  private readonly experimentResults: ExperimentResults;

  constructor(readonly client: Client) {
    this.experimentResults = new ExperimentResults(client);
  }

  /**
   * Keeps the results of the last experiments read after they closed, to answer again without reading their
   * histories: a command's own worker reads an experiment's results to track it, and the command reads them again
   * when the run closes. Also keeps the input and header of the runs this process starts (inputOf), and what they
   * returned once closed() saw them complete (read, outcome). A long-lived worker keeps neither.
   */
  keepClosedResults(): void {
    this.experimentResults.keepClosed();
    this.startedHere ??= new Map();
  }

  /**
   * Follows the histories of a run's experiments while they run, once keepClosedResults() was called, so that their
   * results are at hand when they close (ExperimentResults.follow).
   */
  follow(runId: string, experimentIds: readonly string[]): void {
    this.experimentResults.follow(runId, experimentIds);
  }

  /** Stops following experiments: their results are read from their histories again when asked. */
  stopFollowing(): void {
    this.experimentResults.stopFollowing();
  }

  /**
   * The input with its cases listed (`datasets`), read from the plan store when this machine holds the run's plan
   * (as it does where the run started), else none and a snapshot lists the cases that have a result. Read when first
   * asked for: `status`, the cache's mode and the counts need only the sizes, and a plan of a million cases is 36 MB.
   * For reading only: what a workflow receives never carries the list.
   */
  private withCases(input: RunInput): RunInput {
    if (input.datasets || !input.plan) return input;
    const { digest } = input.plan;
    const cases = () => {
      const last = this.lastPlan?.digest === digest ? this.lastPlan : undefined;
      if (last?.cases === null) return undefined;
      const held = last?.cases.deref();
      if (held) return held;
      const read = casesOf(input, (d) => this.planStore.get(d));
      this.lastPlan = { digest, cases: read ? new WeakRef(read) : null };
      return read;
    };
    return Object.defineProperty({ ...input }, 'datasets', {
      get: cases,
      enumerable: true,
      configurable: true,
    });
  }

  private handle(workflowId: string) {
    return this.client.workflow.getHandle(workflowId);
  }

  /** Starts a run's gate and its run workflow, tagged so `runs` and `status` find it without a worker. */
  async start(
    taskQueue: string,
    input: RunInput,
    header: RunHeader,
    project?: string,
    startedBy = VERSION,
    pinnedTo?: Build,
  ): Promise<void> {
    await startRun(this.client, { taskQueue, input, header, project, startedBy, pinnedTo });
    this.startedHere?.set(input.runId, { input, header, taskQueue, startedAt: new Date() });
  }

  /**
   * A run's input and header: as this process started it (a command's worker tracking its own run), else read.
   * Two round trips and the input's decoding fewer on the way from a run's last experiment to its close.
   */
  async inputOf(runId: string): Promise<{ input: RunInput; header: RunHeader }> {
    const kept = this.startedHere?.get(runId);
    if (kept) return { input: this.withCases(kept.input), header: kept.header };
    const { input, header } = await this.read(runId);
    return { input, header };
  }

  /**
   * Reads a run's input (the first event of its first execution), header (memo) and state, without a worker. A run
   * this process started and saw complete is answered from what it knows (closed at when it saw it close): two
   * round trips and the input's decoding fewer between the run's close and its snapshot.
   */
  async read(runId: string): Promise<RunRecord> {
    const here = this.startedHere?.get(runId);
    if (here?.completed) {
      const { input, header, taskQueue, startedAt, completed } = here;
      return {
        input: this.withCases(input),
        header,
        status: 'COMPLETED',
        closed: true,
        taskQueue,
        startedAt,
        closedAt: completed.at,
      };
    }
    const handle = this.handle(runWorkflowId(runId));
    const description = await handle.describe().catch((error: unknown) => noSuchRun(runId, error));
    const first = await this.client.workflowService.getWorkflowExecutionHistory({
      namespace: this.client.options.namespace,
      execution: {
        workflowId: handle.workflowId,
        runId: description.raw.workflowExecutionInfo?.firstRunId ?? undefined,
      },
      maximumPageSize: 1,
    });
    const started = first.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
    const input = payloadValue<RunInput>(started?.input?.payloads);
    const header = RunHeaderSchema.safeParse(description.memo?.header);
    if (!input || !header.success) throw new Error(`workflow ${handle.workflowId} is not an llm-evals run`);
    const status = description.status.name;
    const startedBy = description.memo?.startedBy;
    const build = pinnedBuildOf(description.raw.workflowExecutionInfo ?? {});
    return {
      input: this.withCases(input),
      header: header.data,
      ...(typeof startedBy === 'string' ? { startedBy } : {}),
      status,
      closed: status !== 'RUNNING',
      taskQueue: description.taskQueue,
      startedAt: description.startTime,
      ...(description.closeTime ? { closedAt: description.closeTime } : {}),
      ...(build ? { build } : {}),
    };
  }

  /** Whether a worker of `build` polled `taskQueue`: a run may be pinned to it there. */
  buildOnQueue(build: Build, taskQueue: string): Promise<boolean> {
    return buildOnQueue(this.client, build, taskQueue);
  }

  /** The workers of `build` that polled `taskQueue` lately: those that may serve a run pinned to it. */
  buildPollers(taskQueue: string, build: Build): Promise<{ identity: string; lastSeen?: Date }[]> {
    return buildPollers(this.client, taskQueue, build).catch(() => []);
  }

  /** The run's progress, with each running experiment's own count (asked of it) in place of its zeros; needs a worker. */
  progress(runId: string, timeoutMs?: number): Promise<RunProgress> {
    return runProgress(this.client, runId, timeoutMs);
  }

  /** The batch each running experiment of a `--batch` run waits on, read from their histories (no worker needed). */
  batchWaits(runId: string, experimentIds: readonly string[]): Promise<Map<string, BatchWait>> {
    return batchWaits(this.client, runId, experimentIds);
  }

  /**
   * The batches a `--batch` run's experiments sent, read from their histories (no worker needed), with what became of
   * each; none for another run. An experiment that never started sent none.
   */
  async sentBatches(runId: string): Promise<SentBatch[]> {
    const { input } = await this.read(runId);
    if (!input.batch) return [];
    return sentBatches(
      this.client,
      runId,
      input.experiments.map((e) => e.id),
    );
  }

  /** Every case result a run's experiments hold so far, read from their histories (no worker needed). */
  results(runId: string, experimentIds: readonly string[]): Promise<CaseResult[]> {
    return this.experimentResults.ofRun(runId, experimentIds);
  }

  /**
   * A run's figures per contender and dataset (what a change compares), from every result its experiments hold; its
   * cases carry the hashes it planned with.
   */
  async digest(runId: string): Promise<RunDigest> {
    const record = await this.read(runId);
    const results = await this.results(
      runId,
      record.input.experiments.map((e) => e.id),
    );
    const { input, header } = record;
    const snapshot = buildSnapshot(
      {
        runId,
        header,
        input,
        status: 'partial',
        results,
        cases: [],
        finishedAt: '',
      },
      { statistics: false },
    );
    return digestOf(snapshot, new Map(Object.values(input.datasets ?? {}).flat()));
  }

  /** What the run workflow returned; waits for it to close, and rejects if it did not complete. */
  outcome(runId: string): Promise<RunResult> {
    const completed = this.startedHere?.get(runId)?.completed;
    if (completed) return Promise.resolve(completed.result);
    return this.handle(runWorkflowId(runId)).result() as Promise<RunResult>;
  }

  /**
   * Resolves once the run has closed, however it closed, with what it returned if it completed — and then once its
   * gate has closed too (see gateClosed). A lost connection is waited out, never taken for a close: the run goes on
   * in Temporal, and the wait resumes once the server answers again (or ends when `stop` aborts, its long polls too:
   * one left waiting would be retried on a connection its owner then closed, and throw from a timer).
   */
  closed(runId: string, stop?: AbortSignal): Promise<RunResult | undefined> {
    const wait = () => this.untilClosed(runId, stop);
    return stop ? this.client.connection.withAbortSignal(stop, wait) : wait();
  }

  private async untilClosed(runId: string, stop?: AbortSignal): Promise<RunResult | undefined> {
    const stopped = new Promise<undefined>((resolve) =>
      stop?.addEventListener('abort', () => resolve(undefined), { once: true }),
    );
    while (!stop?.aborted) {
      try {
        const result = await Promise.race([this.outcome(runId), stopped]);
        const here = this.startedHere?.get(runId);
        if (result && here) here.completed = { result, at: new Date() };
        if (result) await Promise.race([this.gateClosed(runId), stopped]);
        return result;
      } catch (error) {
        if (error instanceof WorkflowFailedError || error instanceof WorkflowNotFoundError || stop?.aborted)
          return undefined;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  /** Waits, at most `timeoutMs`, for the gate of a run that completed to close (why: gateClosed in run-gate.ts). */
  gateClosed(runId: string, timeoutMs?: number): Promise<void> {
    return gateClosed(this.client, runId, timeoutMs);
  }

  /** Whether the Temporal server answers within `timeoutMs`. */
  async reachable(timeoutMs = 1500): Promise<boolean> {
    try {
      await this.client.connection.withDeadline(Date.now() + timeoutMs, () =>
        this.client.workflowService.getSystemInfo({}),
      );
      return true;
    } catch {
      return false;
    }
  }

  /** The state a closed run's gate ended with (its result, no worker needed); `undefined` when it did not complete. */
  finalGate(runId: string): Promise<GateState | undefined> {
    return finalGate(this.client, runId);
  }

  /** The gate's state, when a worker answers the query within `timeoutMs`. */
  gate(runId: string, timeoutMs?: number): Promise<GateState | undefined> {
    return gateNow(this.client, runId, timeoutMs);
  }

  /**
   * A run's state as `status` says it, in one look (no progress counted): `gateKnown` is false for a running run
   * whose gate no worker answered, so whether it is paused cannot be told.
   */
  async stateOf(runId: string): Promise<{ state: RunState; gateKnown: boolean }> {
    const description = await this.handle(runWorkflowId(runId))
      .describe()
      .catch((error: unknown) => noSuchRun(runId, error));
    const status = description.status.name;
    const ended = status === 'COMPLETED' ? (await this.outcome(runId)).state : undefined;
    // With no worker to answer, the gate's query would only wait out its deadline.
    const gate =
      status === 'RUNNING' && (await this.polled(description.taskQueue)) ? await this.gate(runId) : undefined;
    return { state: runStateOf(status, ended, gate?.state), gateKnown: status !== 'RUNNING' || !!gate };
  }

  /**
   * Whether a worker polled the task queue lately (POLLED_WITHIN_MS); true when Temporal does not say. Without one, a
   * query of the run would only wait out its deadline.
   */
  async polled(taskQueue: string): Promise<boolean> {
    const polls = await pollTimesOf(this.client, taskQueue);
    return !polls || polledWithin(polls, Date.now());
  }

  /** Answers a run paused after a streak of failures: true goes on, false stops it. */
  answerPause(runId: string, goOn: boolean): Promise<void> {
    return answerPause(this.client, runId, goOn);
  }

  /** Cancels a run as cancelAndWait does, to the end: how it closed. */
  async cancel(runId: string, graceMs?: number): Promise<'cancelled' | 'terminated'> {
    const { how } = await this.cancelAndWait(runId, graceMs === undefined ? {} : { graceMs });
    return how === 'terminated' ? 'terminated' : 'cancelled';
  }

  /**
   * Cancels a run's workflow (and with it every experiment still running) and waits for a worker to close it, as long
   * as one serves it, then ends its gate (waitForCancelled, in cancel-wait.ts).
   */
  async cancelAndWait(runId: string, options: CancelWaitOptions = {}): Promise<CancelWaited> {
    await this.handle(runWorkflowId(runId))
      .cancel()
      .catch((error: unknown) => noSuchRun(runId, error));
    return waitForCancelled(this, runId, Date.now(), options);
  }

  /** Ends the gate of a cancelled run, which has nothing to clean up; one already closed is left as it is. */
  endGate(runId: string): Promise<void> {
    return endGate(this.client, runId);
  }

  /** Runs found through visibility, newest first; `project`, `suite` and `scheduleId` keep those that match. */
  list(options: RunFilter = {}): AsyncGenerator<RunListing> {
    return listRuns(this.client, options);
  }

  /** The newest run (of a project, when given), or undefined when there is none. */
  async latest(project?: string): Promise<string | undefined> {
    for await (const run of this.list({ ...(project ? { project } : {}), limit: 1 })) return run.runId;
    return undefined;
  }
}
