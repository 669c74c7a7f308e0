/**
 * Calls in flight by key, so that identical requests made at once share one call: the first to ask calls, the others
 * wait for its result. A call that fails is shared with no one: each waiter then calls on its own, one at a time (the
 * first to resume leads, the rest wait for it). Use it in front of a store that is written once the call returns, as
 * the reply cache is, so that the second asker of the same reply does not pay it again while the first is in flight.
 */
export class SingleFlight<T extends object> {
  readonly #flights = new Map<string, Promise<T | undefined>>();

  /** `call`'s result for `key`, or that of the same key's call already in flight (`shared`). */
  async run(key: string, call: () => Promise<T>): Promise<{ value: T; shared: boolean }> {
    for (let pending = this.#flights.get(key); pending; pending = this.#flights.get(key)) {
      const value = await pending;
      if (value !== undefined) return { value, shared: true };
    }
    const flight = call();
    // Settled, and the key freed, before any waiter resumes: a waiter of a failed call finds the key free or led anew.
    const settled = flight
      .then(
        (value) => value,
        () => undefined,
      )
      .finally(() => this.#flights.delete(key));
    this.#flights.set(key, settled);
    return { value: await flight, shared: false };
  }

  /** Keys in flight now. */
  get size(): number {
    return this.#flights.size;
  }
}
