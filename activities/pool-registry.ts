/** One attempt of a pool activity that this process runs, as the registry knows it. */
interface Attempt {
  attempt: number;
  /** Aborted once a later attempt of the same pool starts here: this one starts no new call. */
  handedOver: AbortController;
  quiet: Promise<void>;
}

/**
 * The pools of calls, and the retried cases, one worker process runs, so that a command stopping its worker (Ctrl-C,
 * SIGTERM) can first let them finish the calls in flight and report them — those are paid for — and only then shut
 * the worker down; and so that an activity's next attempt, started here while the one before still runs (Temporal
 * timed it out while the server was away, but this process never stopped), takes over only once that one has
 * reported what it finished.
 */
export class PoolRegistry {
  private readonly controller = new AbortController();
  private readonly quieting = new Set<Promise<void>>();
  private readonly attempts = new Map<string, Attempt>();

  /** Aborted once the process is stopping: pools start no new call. */
  get draining(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Tracks attempt `attempt` of the activity `pool` (its experiment's workflow id and its activity id: a pool, or a
   * retried case) until it calls `quieted`: it has no call running and nothing left to report. An earlier attempt of
   * the same activity still running here is handed over: `handedOver` of that one aborts, and the returned `before`
   * settles once it is quiet. Until then the experiment still takes its reports; the later attempt's first exchange
   * would refuse them, and the cases they settle would be paid again.
   */
  enter(
    pool: string,
    attempt: number,
  ): { handedOver: AbortSignal; before: Promise<void>; quieted: () => void } {
    let quieted = () => {};
    const quiet = new Promise<void>((resolve) => (quieted = resolve));
    this.quieting.add(quiet);
    void quiet.finally(() => this.quieting.delete(quiet));
    const earlier = this.attempts.get(pool);
    const entry: Attempt = { attempt, handedOver: new AbortController(), quiet };
    if (earlier && earlier.attempt > attempt) {
      // Cannot happen (Temporal starts an attempt only once the one before has ended for it); if it did, the later
      // attempt goes on and this one hands over at once.
      entry.handedOver.abort();
      return { handedOver: entry.handedOver.signal, before: Promise.resolve(), quieted };
    }
    this.attempts.set(pool, entry);
    void quiet.finally(() => {
      if (this.attempts.get(pool) === entry) this.attempts.delete(pool);
    });
    earlier?.handedOver.abort();
    return {
      handedOver: entry.handedOver.signal,
      before: earlier ? earlier.quiet : Promise.resolve(),
      quieted,
    };
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
