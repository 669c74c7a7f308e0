// The calls the suite's provider recorded (tmp/bench-chaos/calls.jsonl), read as the file grows.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { recordFile } from './options.ts';

/** One call of the provider, as its start and end lines tell it. */
export interface Call {
  case: string;
  pid: number;
  start: number;
  /** When it returned; for a call of a killed worker that never returned, when the worker was killed. */
  end?: number;
  /** True when the end is the worker's death, not the call's return. */
  cut?: boolean;
}

/** The calls recorded so far, and those still open. */
export class Recording {
  readonly calls: Call[] = [];
  private readonly open = new Map<string, Call>();
  private offset = 0;
  private rest = '';
  private readonly firstStart = new Map<number, number>();

  poll(): void {
    if (!existsSync(recordFile)) return;
    const fd = openSync(recordFile, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= this.offset) return;
      const buffer = Buffer.alloc(size - this.offset);
      readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset = size;
      const lines = (this.rest + buffer.toString('utf8')).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const entry = JSON.parse(line) as { case?: string; pid: number; n: number; t: number; end?: boolean };
        const id = `${entry.pid}:${entry.n}`;
        if (entry.end) {
          const call = this.open.get(id);
          if (call) call.end = entry.t;
          this.open.delete(id);
        } else {
          const call: Call = { case: entry.case!, pid: entry.pid, start: entry.t };
          this.calls.push(call);
          if (!this.firstStart.has(call.pid)) this.firstStart.set(call.pid, call.start);
          this.open.set(id, call);
        }
      }
    } finally {
      closeSync(fd);
    }
  }

  /** The calls of `pid` still open end when it was killed. */
  cut(pid: number, at: number): number {
    let n = 0;
    for (const [id, call] of this.open) {
      if (call.pid !== pid) continue;
      call.end = at;
      call.cut = true;
      this.open.delete(id);
      n++;
    }
    return n;
  }

  inFlight(): number {
    return this.open.size;
  }

  /** When `pid` started its first call (Infinity before it has). */
  firstStartOf(pid: number): number {
    return this.firstStart.get(pid) ?? Infinity;
  }

  lastStart(): number {
    return this.calls.at(-1)?.start ?? 0;
  }

  distinct(): number {
    return new Set(this.calls.map((c) => c.case)).size;
  }
}
