/**
 * The pools of calls one worker process runs, so that a command stopping its worker (Ctrl-C, SIGTERM) can first let
 * them finish the calls in flight and report them — those are paid for — and only then shut the worker down.
 */
export class PoolRegistry {
  private readonly controller = new AbortController();
  private readonly quieting = new Set<Promise<void>>();

  /** Aborted once the process is stopping: pools start no new call. */
  get draining(): AbortSignal {
    return this.controller.signal;
  }

  /** Tracks a pool until `quiet` settles: it has no call running and nothing left to report. */
  track(quiet: Promise<void>): void {
    this.quieting.add(quiet);
    void quiet.finally(() => this.quieting.delete(quiet));
  }

  /** How many pools still have calls running or results to report. */
  get busy(): number {
    return this.quieting.size;
  }

  /** Stops every pool from starting calls, and waits until each has reported the ones it had running. */
  async drain(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled([...this.quieting]);
  }
}
