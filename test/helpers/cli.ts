import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './suite-dir.ts';

/** The installed entry point, run exactly as a user's shell runs it. */
export const BIN = join(REPO, 'bin/llm-evals.mjs');

/** What one run of the real CLI left behind; stdout and stderr have their colour codes stripped. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** Removes terminal colour codes, so assertions read the text a user sees. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Runs `node bin/llm-evals.mjs ...args` in `cwd` with colours off; kills it after 60 s. */
export async function runCli(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CliResult> {
  const { code, stdout, stderr } = await startCli(args, { ...options, timeoutMs: 60_000 }).done;
  return { code, stdout, stderr };
}

let clis = 0;

/** A CLI process still running: the child to signal, what it printed so far, and how it ended. */
export interface CliProcess {
  child: ChildProcess;
  /** stdout and stderr so far, colour codes stripped. */
  output(): { stdout: string; stderr: string };
  /** The first match of `pattern` in stdout or stderr; rejects when the process ends first, or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Settles when the process has exited: its code (null when a signal ended it), signal and output. */
  done: Promise<CliResult & { signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node bin/llm-evals.mjs ...args` in `cwd` like {@link runCli}, but returns at once, so a test can signal it
 * mid-run; kills it after `timeoutMs` (default 120 s).
 */
export function startCli(
  args: readonly string[],
  /** `bin`: another installation's command (an installed tarball's), else this checkout's. */
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; bin?: string },
): CliProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
  delete env.FORCE_COLOR;
  if (!options.env?.LLM_EVALS_HELPER) delete env.LLM_EVALS_HELPER;
  // A shell's COLUMNS would fit tables to its width; tests that read tables row by row ask for a width themselves.
  if (!options.env?.COLUMNS) delete env.COLUMNS;
  // Each CLI gets a reply cache of its own, so no run answers from another's replies; a test of the cache names one.
  if (!options.env?.LLM_EVALS_CACHE_DIR && env.LLM_EVALS_CACHE_DIR)
    env.LLM_EVALS_CACHE_DIR = join(env.LLM_EVALS_CACHE_DIR, `cli-${process.pid}-${clis++}`);
  const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let exited = false;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    changed();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    changed();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  const done = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      exited = true;
      changed();
      resolve({ code, signal, stdout: stripAnsi(stdout), stderr: stripAnsi(stderr) });
    });
  });
  const output = () => ({ stdout: stripAnsi(stdout), stderr: stripAnsi(stderr) });
  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const { stdout: out, stderr: err } = output();
        const match = out.match(pattern) ?? err.match(pattern);
        if (!match && !exited) return;
        listeners.delete(check);
        clearTimeout(giveUp);
        if (match) resolve(match);
        else reject(new Error(`llm-evals ${args.join(' ')} ended without printing ${pattern}:\n${err}`));
      };
      const giveUp = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`llm-evals ${args.join(' ')} printed no ${pattern} in ${timeoutMs} ms:\n${stderr}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  return { child, output, waitFor, done };
}

/** Runs a long command (`worker --until`, `resume`, `compare`) like {@link runCli}, killing it after `timeoutMs` (240 s). */
export async function runCliLong(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CliResult> {
  const { code, stdout, stderr } = await startCli(args, {
    ...options,
    timeoutMs: options.timeoutMs ?? 240_000,
  }).done;
  return { code, stdout, stderr };
}
