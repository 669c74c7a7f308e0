// The chaos bench's command line, where it keeps its files, and its clock.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** What one chaos run is asked to do (see bench/chaos.ts for the usage). */
export interface ChaosOptions {
  cases: number;
  parallelism: number;
  latencyMs: number;
  datasets: number;
  killEveryMs: number;
  pauseMs: number;
  serverKillAfter: number;
  serverDownMs: number;
  timeoutMs: number;
  /** Calls in flight when every experiment runs at once (`-j` is the number of experiments). */
  target: number;
}

/** A finished case is durable within this long (the pools report within a quarter second; a second is promised). */
export const DURABLE_MS = 1000;

/** Reads the bench's arguments; a bad number throws, naming the flag. */
export function parseChaosOptions(args: string[]): ChaosOptions {
  const { values: opts, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      parallelism: { type: 'string', short: 'p', default: '16' },
      latency: { type: 'string', default: '200' },
      datasets: { type: 'string', default: '1' },
      'kill-every': { type: 'string', default: '20' },
      pause: { type: 'string', default: '0' },
      'server-kill-after': { type: 'string', default: '1' },
      'server-down': { type: 'string', default: '0' },
      timeout: { type: 'string', default: '900' },
    },
  });
  const number = (name: string, text: string | undefined, min = 0): number => {
    const n = Number(text);
    if (!Number.isFinite(n) || n < min) throw new Error(`${name} takes a number ≥ ${min}, got ${text}`);
    return n;
  };
  const cases = Math.floor(number('cases', positionals[0] ?? '2000', 1));
  const parallelism = Math.floor(number('-p', opts.parallelism, 1));
  const latencyMs = number('--latency', opts.latency);
  const datasets = Math.floor(number('--datasets', opts.datasets, 1));
  return {
    cases,
    parallelism,
    latencyMs,
    datasets,
    killEveryMs: number('--kill-every', opts['kill-every'], 5) * 1000,
    pauseMs: number('--pause', opts.pause) * 1000,
    serverKillAfter: Math.floor(number('--server-kill-after', opts['server-kill-after'])),
    serverDownMs: number('--server-down', opts['server-down']) * 1000,
    timeoutMs: number('--timeout', opts.timeout, 10) * 1000,
    target: parallelism * datasets,
  };
}

const repo = resolve(import.meta.dirname, '..', '..');
/** The `llm-evals` the bench runs. */
export const bin = join(repo, 'bin', 'llm-evals.mjs');
/** Everything the bench writes, under tmp/bench-chaos/. */
export const root = join(repo, 'tmp', 'bench-chaos');
export const stateDir = join(root, 'state');
export const suiteDir = join(root, 'suite');
export const logDir = join(root, 'log');
/** Where the suite's provider appends a line when each call starts and ends. */
export const recordFile = join(root, 'calls.jsonl');

/** When the bench began. */
export const began = Date.now();
/** Seconds since the bench began, for the progress lines. */
export const since = (t: number) => ((t - began) / 1000).toFixed(1);
/** A progress line on stderr, stamped with the seconds since the bench began. */
export const note = (line: string) => process.stderr.write(`[${since(Date.now()).padStart(6)} s] ${line}\n`);
