import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { CaseResult } from '../core/results.ts';
import { experimentWorkflowId } from '../core/run-input.ts';
import { followExperimentResults, readExperimentResults } from './experiment-history.ts';

/** How many closed experiments' results are kept to answer again without reading their histories. */
const KEPT_EXPERIMENTS = 32;

/**
 * How long a question for a followed experiment's results waits for the follower: it is asked once the experiment
 * has closed, and the follower gets the last events as they are written; past this the history is read instead.
 */
const FOLLOW_WAIT_MS = 250;

/**
 * How many experiments' histories are read at once: two keep the server busy while a page is decoded, with a quarter
 * of the pages in flight that eight had (see PAGE_EVENTS in experiment-history.ts).
 */
const READ_AT_ONCE = 2;

/**
 * The results of a run's experiments, read from their histories (experiment-history.ts) for Runs: once keepClosed()
 * was called, those of the last experiments read after they closed are kept, and follow() reads experiments' histories
 * as Temporal writes them, so that a command's worker and its snapshot read each closed experiment once.
 */
export class ExperimentResults {
  /** The results of experiments that had closed when read, newest last, once keepClosed() was called. */
  private closed: Map<string, CaseResult[]> | undefined;
  /** The experiments followed (follow()), by workflow id, until their results are kept: their results, if it could. */
  private readonly followed = new Map<string, Promise<CaseResult[] | undefined>>();
  /** Stops the followers; each has a listener on it while it waits for a page. */
  private readonly following = new AbortController();

  constructor(private readonly client: Client) {
    setMaxListeners(KEPT_EXPERIMENTS + 1, this.following.signal);
  }

  /** Keeps the results of the last experiments read after they closed (see Runs.keepClosedResults). */
  keepClosed(): void {
    this.closed ??= new Map();
  }

  /**
   * Follows the histories of a run's experiments while they run, once keepClosed() was called: a command's worker
   * reads each experiment's results as it closes (to track it) and its snapshot reads them all, and a big
   * experiment's history took a tenth of a second to seconds to read then, between its last call and the run's
   * close. At most KEPT_EXPERIMENTS at once; stopFollowing() ends them.
   */
  follow(runId: string, experimentIds: readonly string[]): void {
    const kept = this.closed;
    if (!kept) return;
    for (const id of experimentIds) {
      const workflowId = experimentWorkflowId(runId, id);
      if (this.followed.has(workflowId) || kept.has(workflowId)) continue;
      if (this.followed.size >= KEPT_EXPERIMENTS) return;
      const results = followExperimentResults(this.client, workflowId, this.following.signal);
      this.followed.set(workflowId, results);
      // One that could not follow to the end stays listed, answering nothing: it is not started again (each start
      // reads the history from its first event), and its results are read when asked.
      void results.then((found) => {
        if (!found) return;
        this.keep(workflowId, found);
        this.followed.delete(workflowId);
      });
    }
  }

  /** Stops following experiments: their results are read from their histories again when asked. */
  stopFollowing(): void {
    this.following.abort();
  }

  /** Every case result a run's experiments hold so far; an experiment never started (an aborted run) holds none. */
  async ofRun(runId: string, experimentIds: readonly string[]): Promise<CaseResult[]> {
    const all: CaseResult[] = [];
    for (let i = 0; i < experimentIds.length; i += READ_AT_ONCE) {
      const parts = await Promise.all(
        experimentIds.slice(i, i + READ_AT_ONCE).map((id) =>
          this.of(experimentWorkflowId(runId, id)).catch((error: unknown) => {
            if (error instanceof WorkflowNotFoundError) return [];
            throw error;
          }),
        ),
      );
      // One at a time: spread into push, 200,000 results passed the stack's room for arguments.
      for (const part of parts) for (const result of part) all.push(result);
    }
    return all;
  }

  private keep(workflowId: string, results: CaseResult[]): void {
    if (!this.closed) return;
    this.closed.set(workflowId, results);
    for (const old of this.closed.keys()) {
      if (this.closed.size <= KEPT_EXPERIMENTS) break;
      this.closed.delete(old);
    }
  }

  private async of(workflowId: string): Promise<CaseResult[]> {
    const kept = this.closed?.get(workflowId);
    if (kept) return kept;
    const following = this.followed.get(workflowId);
    if (following) {
      const followed = await Promise.race([following, sleep(FOLLOW_WAIT_MS, undefined, { ref: false })]);
      if (followed) return followed;
    }
    const { results, closed } = await readExperimentResults(this.client, workflowId);
    if (closed) this.keep(workflowId, results);
    return results;
  }
}
