// A provider whose every call takes a fixed time, for the throughput benches. It counts its calls and records how
// many are in flight over time, and writes both to BENCH_STATS_FILE when the process exits.
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogEntry, CompletionRequest, ModelSettings, Provider, ProviderResponse } from 'llm-evals';

/** With LLM_EVALS_TIMINGS set, the fake marks its first call's start and its last call's end among the CLI's marks. */
const timings = Boolean(process.env.LLM_EVALS_TIMINGS);

/** What the fake saw: its calls, and every change of the in-flight count as [ms since the first call, count]. */
export interface LatencyStats {
  calls: number;
  inFlight: [number, number][];
}

/** A provider that answers every call by echoing the user text after `latencyMs`. */
export class FixedLatencyProvider implements Provider {
  readonly name = 'bench';
  readonly prefix = 'bench/';
  readonly requestType = 'prompt';
  readonly requestTypeDescription = 'a chat completion answered after a fixed delay';
  readonly direct = false;
  readonly envKeys: string[] = [];
  readonly efforts: string[] = [];
  readonly stats: LatencyStats = { calls: 0, inFlight: [] };
  private current = 0;
  private origin = 0;
  private lastEnd = 0;

  constructor(readonly latencyMs: number) {}

  catalog(): CatalogEntry[] {
    return [{ id: 'bench/echo', inputPrice: 0, outputPrice: 0 }];
  }

  private mark(delta: number): void {
    const now = performance.now();
    if (this.stats.calls === 0 && delta > 0) {
      this.origin = now;
      if (timings) process.stderr.write(`timing ${(now / 1000).toFixed(3)}s first call\n`);
    }
    this.current += delta;
    if (timings && this.current === 0) this.lastEnd = now;
    this.stats.inFlight.push([now - this.origin, this.current]);
  }

  async complete(_model: ModelSettings & { name: string; id: string }, request: CompletionRequest) {
    this.mark(1);
    this.stats.calls++;
    try {
      if (this.latencyMs > 0) await sleep(this.latencyMs);
      const usage = { inputTokens: 10, outputTokens: 5, costUsd: 0 };
      return { text: request.user, usage } satisfies ProviderResponse;
    } finally {
      this.mark(-1);
    }
  }

  /** Writes the stats to `file` when the process exits (synchronously, so a fast exit keeps them). */
  writeOnExit(file: string | undefined): this {
    process.on('exit', () => {
      if (timings) process.stderr.write(`timing ${(this.lastEnd / 1000).toFixed(3)}s last call ended\n`);
      if (file) writeFileSync(file, JSON.stringify(this.stats));
    });
    return this;
  }
}

/** The time-weighted mean of the in-flight count, leaving out the first and last `trimMs` of the calls. */
export function meanInFlight(points: readonly [number, number][], trimMs = 1000): number | null {
  if (points.length < 2) return null;
  const from = points[0]![0] + trimMs;
  const to = points[points.length - 1]![0] - trimMs;
  if (to <= from) return null;
  let area = 0;
  for (let i = 0; i < points.length - 1; i++) {
    const start = Math.max(points[i]![0], from);
    const end = Math.min(points[i + 1]![0], to);
    if (end > start) area += points[i]![1] * (end - start);
  }
  return area / (to - from);
}
