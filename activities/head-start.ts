import type { HeadStartCase } from '../src/core/run-schedule.ts';
import {
  createCaseRunner,
  type CaseDeps,
  type CaseOutcome,
  type CaseTask,
  type Prepared,
} from './case-runner.ts';
import type { GateClient } from './gated-model.ts';

const keyOf = (runId: string, experimentId: string, caseKey: string) =>
  `${runId}\0${experimentId}\0${caseKey}`;

/**
 * The first calls of a run that its command serves in its own process, started while Temporal is reached and the
 * run is made (the ~0.6 s before its pools could start them), for those pools to take over as they lease the cases
 * (runCases). Until its pool reports it, such a call is one in flight like any other: a crash before then pays it
 * again on resume. Only calls that need nothing of the gate start early: a run not yet made is neither paused nor
 * stopped and has no vendor closed, and a contender under a rate limit has none (headStartCases).
 */
export class HeadStart {
  /** Shared with the worker's pools, so each dataset is prepared once. */
  readonly prepared: Prepared = new Map();
  private readonly calls = new Map<string, Promise<CaseOutcome>>();
  private allTakenOver!: () => void;
  private readonly allTaken = new Promise<void>((resolve) => (this.allTakenOver = resolve));
  private attachGate!: (gate: GateClient) => void;
  private readonly gate = new Promise<GateClient>((resolve) => (this.attachGate = resolve));

  constructor(runId: string, deps: Omit<CaseDeps, 'gate'>, cases: readonly HeadStartCase[]) {
    const runOne = createCaseRunner({ ...deps, gate: this.earlyGate() }, this.prepared);
    for (const c of cases) {
      const task: CaseTask = { runId, ...c };
      const call = runOne(task, 1);
      // Its pool takes it over and sees how it ended; until then a failure must not count as unhandled.
      call.catch(() => undefined);
      this.calls.set(keyOf(runId, c.experimentId, c.caseKey), call);
    }
    if (this.calls.size === 0) this.allTakenOver();
  }

  /** How many calls started early and are not taken over yet. */
  get waiting(): number {
    return this.calls.size;
  }

  /** Resolves once every call started early has been taken over by a pool. */
  takenOver(): Promise<void> {
    return this.allTaken;
  }

  /** Hands the calls the run's gate once the worker has one: a call that closed a vendor tells it then. */
  attach(gate: GateClient): void {
    this.attachGate(gate);
  }

  /** Whether a call started early for this case of this run is still there to take over. */
  has(runId: string, experimentId: string, caseKey: string): boolean {
    return this.calls.has(keyOf(runId, experimentId, caseKey));
  }

  /** The call started early for this case of this run, once: for the pool that leased the case to take over. */
  take(runId: string, experimentId: string, caseKey: string): Promise<CaseOutcome> | undefined {
    const key = keyOf(runId, experimentId, caseKey);
    const call = this.calls.get(key);
    this.calls.delete(key);
    if (call && this.calls.size === 0) this.allTakenOver();
    return call;
  }

  /**
   * The gate as a run not yet made has it: every call may start now. What a call tells the gate (a vendor it found
   * closed) waits for the run's gate.
   */
  private earlyGate(): GateClient {
    return {
      slot: () => Promise.resolve({ startAt: Date.now() }),
      closeVendor: async (runId, vendor, seconds) => (await this.gate).closeVendor(runId, vendor, seconds),
      endCall: async (runId, holder) => (await this.gate).endCall(runId, holder),
      report: async (runId, outcomes) => (await this.gate).report(runId, outcomes),
    };
  }
}
