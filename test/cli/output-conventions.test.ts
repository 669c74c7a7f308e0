import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startCli } from '../helpers/cli.ts';
import { recordFileIn, waitForCalls, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// Output conventions as a user meets them, over every command: NO_COLOR wins over FORCE_COLOR, data goes to stdout
// (JSON where --json or --format json asks), the info box and progress to stderr, and the exit code says how it went:
// 0 done, 1 failed, 2 bad input, 130 interrupted.

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const ESC = '\u001b[';
let suite: string;
let env: NodeJS.ProcessEnv;
let runId: string;
let snapshotFile: string;

/** The real CLI's raw output, colour codes kept, with both NO_COLOR and FORCE_COLOR set. */
function raw(args: readonly string[], extra: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: suite,
    env: { ...process.env, ...env, NO_COLOR: '1', FORCE_COLOR: '1', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

beforeAll(async () => {
  suite = dirs.toySuite();
  env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `conventions-${randomUUID()}` };
  const compare = await raw(['compare', '--no-open', '--display', 'tui']);
  expect(compare.code, compare.stderr).toBe(0);
  const [file] = readdirSync(join(suite, 'evals/results')).filter((f) => f.endsWith('.json'));
  snapshotFile = join('evals/results', file!);
  runId = file!.replace(/\.json$/, '');
}, 240_000);

type Out = 'json' | 'text' | 'empty';

/** [what, args (RUN and FILE replaced), exit code, what stdout holds, whether stderr opens with the info box] */
const COMMANDS: [string, string[], number, Out, boolean][] = [
  ['--help', ['--help'], 0, 'text', false],
  ['version', ['version'], 0, 'text', false],
  ['cases', ['cases'], 0, 'text', true],
  ['verify', ['verify'], 0, 'text', true],
  ['weights', ['weights'], 0, 'text', true],
  ['compare -n', ['compare', '-n'], 0, 'text', true],
  ['run -n -m', ['run', '-n', '-m', 'echo'], 0, 'text', true],
  ['start -n', ['start', '-n'], 0, 'text', true],
  ['completion bash', ['completion', 'bash'], 0, 'text', false],
  ['upgrade-config -n', ['upgrade-config', '-n'], 0, 'text', true],
  ['__complete datasets', ['__complete', 'datasets'], 0, 'text', false],
  ['runs --json', ['runs', '--json'], 0, 'json', false],
  ['runs', ['runs'], 0, 'text', false],
  ['status --json', ['status', 'RUN', '--json'], 0, 'json', false],
  ['status', ['status', 'RUN'], 0, 'text', false],
  ['report --format json', ['report', 'RUN', '--format', 'json', '--no-open'], 0, 'json', false],
  ['report', ['report', 'RUN', '--no-open', '--display', 'tui'], 0, 'text', false],
  ['schedule list', ['schedule', 'list'], 0, 'text', false],
  ['schedule list --json', ['schedule', 'list', '--json'], 0, 'json', false],
  ['schedule show of no such schedule', ['schedule', 'show', 'nightly'], 2, 'empty', false],
  ['diff', ['diff', 'FILE', 'FILE'], 0, 'text', false],
  ['render --format json', ['render', 'FILE', '--format', 'json'], 0, 'json', false],
  ['render --format tui', ['render', 'FILE', '--format', 'tui', '--scores'], 0, 'text', false],
  ['rescore --format json', ['rescore', 'FILE', '--format', 'json', '--no-open'], 0, 'json', true],
  ['rescore', ['rescore', 'RUN', '--no-open', '--display', 'tui'], 0, 'text', true],
  ['status of no such run', ['status', 'nope'], 2, 'empty', false],
  ['cancel of no such run', ['cancel', 'nope'], 2, 'empty', false],
  ['continue of no such run', ['continue', 'nope'], 2, 'empty', false],
  ['report of no such run', ['report', 'nope'], 2, 'empty', false],
  ['a bad -m', ['run', '-m', 'zzz'], 2, 'empty', true],
  ['a bad flag value', ['compare', '-p', 'x'], 2, 'empty', false],
  ['an unknown command', ['frobnicate'], 2, 'empty', false],
  ['a snapshot that is not one', ['render', 'evals/.llm-evals.config.yml'], 2, 'empty', false],
];

describe.concurrent('output conventions over every command', () => {
  it.each(COMMANDS)(
    '%s',
    async (_, args, code, out, box) => {
      const given = args.map((a) => (a === 'RUN' ? runId : a === 'FILE' ? snapshotFile : a));
      const result = await raw(given);
      expect(result.code, result.stderr).toBe(code);
      expect(result.stdout).not.toContain(ESC);
      expect(result.stderr).not.toContain(ESC);
      // The info box and progress never land in the data.
      expect(result.stdout).not.toContain('┌ Info');
      expect(result.stdout).not.toMatch(/█|░/);
      // The info box where the command acts on the suite; never on a read (a run's report, a schedule, a diff).
      if (box) expect(result.stderr).toMatch(/^┌ Info/);
      else expect(result.stderr).not.toContain('┌ Info');
      if (out === 'json') expect(() => JSON.parse(result.stdout) as unknown).not.toThrow();
      if (out === 'text') expect(result.stdout.trim()).not.toBe('');
      if (out === 'empty') expect(result.stdout).toBe('');
      // Bad input is one message, never a stack trace.
      if (code === 2) expect(result.stderr).not.toMatch(/^\s+at /m);
      if (args[1] === 'nope') expect(result.stderr).toContain('no run "nope" on this Temporal');
    },
    180_000,
  );

  it('server status: not running is exit 1, said on stdout', async () => {
    const result = await raw(['server', 'status'], { LLM_EVALS_STATE_DIR: dirs.os(), TEMPORAL_ADDRESS: '' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('not running');
    expect(result.stdout + result.stderr).not.toContain(ESC);
  });

  it('Ctrl-C during a compare: exit 130, and how to resume on stderr', async () => {
    const dir = dirs.inRepo('conventions-int-');
    writeRecordingSuite(dir, 6);
    const record = recordFileIn(dir);
    const cli = startCli(['compare', '--no-open', '-p', '1'], {
      cwd: dir,
      env: {
        ...env,
        LLM_EVALS_TASK_QUEUE: `conventions-int-${randomUUID()}`,
        RECORDING_API_KEY: 'k',
        RECORD_FILE: record,
        CALL_DELAY_MS: '1000',
      },
    });
    await waitForCalls(record, 1, cli.done);
    cli.child.kill('SIGINT');
    const done = await cli.done;
    expect(done.code).toBe(130);
    expect(done.stderr).toContain('llm-evals resume ');
  }, 120_000);
});
