/**
 * Work that holds memory in proportion to a weight (the track activity: an experiment's results, its cases' rows,
 * its log), sharing one budget in a process: a piece starts once the weights under way and its own fit the budget,
 * or at once when nothing is under way (a piece larger than the budget runs alone). First come, first started.
 */
export class Budget {
  private used = 0;
  private running = 0;
  private readonly queue: { weight: number; start: () => void }[] = [];

  constructor(readonly size: number) {}

  /** Runs `work` once `weight` fits, and gives the weight back when it settles. */
  async run<T>(weight: number, work: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.queue.push({ weight, start });
      this.startWhatFits();
    });
    try {
      return await work();
    } finally {
      this.used -= weight;
      this.running--;
      this.startWhatFits();
    }
  }

  private startWhatFits(): void {
    for (let next = this.queue[0]; next; next = this.queue[0]) {
      if (this.running > 0 && this.used + next.weight > this.size) return;
      this.queue.shift();
      this.used += next.weight;
      this.running++;
      next.start();
    }
  }
}
