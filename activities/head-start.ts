import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_ATTEMPTS } from '../src/core/retry.ts';
import type { HeadStartCase } from '../src/core/run-schedule.ts';
import {
  createCaseRunner,
  delayLeft,
  outOfTries,
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
 * run is made (the ~0.6-1 s before its pools could start them), for those pools to take over as they lease the cases
 * (runCases). Each experiment keeps `lanes` calls in flight over its cases here (the head of its first lease,
 * headStartCases) until its pool takes one over: a call that ends before the pool starts is followed by the next, so
 * the lanes stay full however late the pool comes. Until its pool reports it, such a call is one in flight like any
 * other: a crash before then pays it again on resume. Only calls that need nothing of the gate start early: a run not
 * yet made is neither paused nor stopped and has no vendor closed, and a contender under a rate limit has none. A
 * vendor asking to slow down (a 429), or a Ctrl-C (`stopWhen`), starts no more. A call that failed in a way worth
 * retrying is tried again here, through the run's gate, when its delay is over, unless its pool took it over first.
 */
export class HeadStart {
  /** Shared with the worker's pools, so each dataset is prepared once. */
  readonly prepared: Prepared = new Map();
  private readonly calls = new Map<string, Promise<CaseOutcome>>();
  /** Each experiment's cases not called yet, while no pool has taken one of its calls over. */
  private readonly queued = new Map<string, HeadStartCase[]>();
  /** The calls waiting here to be tried again, each with what ends its wait once its pool takes it over. */
  private readonly waits = new Map<string, () => void>();
  private stopped = false;
  private interrupt!: () => void;
  private readonly interruptedNow = new Promise<void>((resolve) => (this.interrupt = resolve));
  private made!: () => void;
  private readonly runIsMade = new Promise<void>((resolve) => (this.made = resolve));
  private allTakenOver!: () => void;
  private readonly allTaken = new Promise<void>((resolve) => (this.allTakenOver = resolve));
  private attachGate!: (gate: GateClient) => void;
  private readonly gate = new Promise<GateClient>((resolve) => (this.attachGate = resolve));
  private readonly runOne: ReturnType<typeof createCaseRunner>;
  private readonly runAgain: ReturnType<typeof createCaseRunner>;

  constructor(
    private readonly runId: string,
    deps: Omit<CaseDeps, 'gate'>,
    cases: readonly HeadStartCase[],
    lanes: number,
  ) {
    this.runOne = createCaseRunner({ ...deps, gate: this.earlyGate() }, this.prepared);
    this.runAgain = createCaseRunner({ ...deps, gate: this.runGate() }, this.prepared);
    for (const c of cases) {
      const queue = this.queued.get(c.experimentId) ?? [];
      this.queued.set(c.experimentId, queue);
      queue.push(c);
    }
    for (const experimentId of this.queued.keys()) for (let i = 0; i < lanes; i++) this.next(experimentId);
    if (this.calls.size === 0) this.allTakenOver();
  }

  /** Starts the experiment's next case, unless none is left, its pool has begun, or calls start no more. */
  private next(experimentId: string): void {
    const c = this.stopped ? undefined : this.queued.get(experimentId)?.shift();
    if (!c) return;
    const key = keyOf(this.runId, c.experimentId, c.caseKey);
    const call = this.tries({ runId: this.runId, ...c }, key);
    this.calls.set(key, call);
    // A call to try again has closed its vendor first (earlyGate), which starts no more.
    call.then(
      () => this.next(experimentId),
      // Its pool takes it over and sees how it ended; until then a failure must not count as unhandled.
      () => (this.stopped = true),
    );
  }

  /**
   * A case's tries here. One that failed in a way worth retrying is tried again once its delay is over and the run is
   * made, through the run's gate (its windows, its pause): a pool that came late must not make the retry late too.
   * Its pool taking it over first, or a Ctrl-C, ends it with that failure, for the pool to report and the experiment
   * to retry.
   */
  private async tries(task: CaseTask, key: string): Promise<CaseOutcome> {
    let outcome = await this.runOne(task, 1);
    while ('retry' in outcome && outcome.retry.attempts < MAX_ATTEMPTS) {
      if (!this.calls.has(key)) return outcome;
      const due = delayLeft(outcome.retry, Date.now()) * 1000;
      const tryAgain = await Promise.race([
        Promise.all([this.runIsMade, sleep(due, undefined, { ref: false })]).then(() => true),
        new Promise<false>((resolve) => this.waits.set(key, () => resolve(false))),
        this.interruptedNow.then(() => false),
      ]);
      this.waits.delete(key);
      if (!tryAgain) return outcome;
      outcome = await this.runAgain(task, outcome.retry.attempts + 1);
    }
    return outOfTries(task, outcome);
  }

  /** Starts no more calls once `signal` aborts (a Ctrl-C): those in flight are taken over and reported. */
  stopWhen(signal: AbortSignal): void {
    const stop = () => {
      this.stopped = true;
      this.interrupt();
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
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

  /**
   * The run is made, its gate with it. The calls started early never asked the gate; those after them all would, as
   * they end together, and wait for one look at it: it is read now, ~0.3 s before the run's pools start.
   */
  runMade(): void {
    this.made();
    void this.gate.then((gate) => gate.look?.(this.runId));
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
    // One waiting here to be tried again ends with its failure: its pool retries it from now on.
    this.waits.get(key)?.();
    // Its pool has begun: it calls the experiment's cases from now on.
    if (runId === this.runId) this.queued.delete(experimentId);
    if (call && this.calls.size === 0) this.allTakenOver();
    return call;
  }

  /**
   * The gate as a run not yet made has it: every call may start now. What a call tells the gate (a vendor it found
   * closed, which also starts no more calls here) waits for the run's gate.
   */
  private earlyGate(): GateClient {
    return {
      ...this.runGate(),
      slot: () => Promise.resolve({ startAt: Date.now() }),
      closeVendor: async (runId, vendor, seconds) => {
        // The vendor asked to slow down: no more calls start before the gate has heard it.
        this.stopped = true;
        const until = Date.now() + seconds * 1000;
        const gate = await this.gate;
        // Closed from when the vendor said so, not from when the run's gate came to hear it.
        await gate.closeVendor(runId, vendor, Math.max(0, until - Date.now()) / 1000);
      },
    };
  }

  /**
   * The run's gate once the worker has it, for the calls tried again here once the run is made (they wait for their
   * turn on a timer); the first calls tell it what they found (earlyGate).
   */
  private runGate(): GateClient {
    return {
      slot: async (runId, request) => (await this.gate).slot(runId, request),
      closeVendor: async (runId, vendor, seconds) => (await this.gate).closeVendor(runId, vendor, seconds),
      endCall: async (runId, holder) => (await this.gate).endCall(runId, holder),
      report: async (runId, outcomes) => (await this.gate).report(runId, outcomes),
      wait: (ms) => sleep(ms),
    };
  }
}
