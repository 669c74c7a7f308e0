import { spawn } from 'node:child_process';
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
export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
  delete env.FORCE_COLOR;
  if (!options.env?.LLM_EVALS_HELPER) delete env.LLM_EVALS_HELPER;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: stripAnsi(stdout), stderr: stripAnsi(stderr) });
    });
  });
}
