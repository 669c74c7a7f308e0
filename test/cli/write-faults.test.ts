import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, stripAnsi, type CliResult } from '../helpers/cli.ts';
import { recordFileIn, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// Never a wrong word (issue 28, "Faults on disk"): a full disk while saving left a truncated RUN.json and printed
// `EFBIG`/`ENOSPC` with no path. A file size limit (`ulimit -f`) fails a write part way exactly as a full disk does:
// every file is written whole or not at all, and the message names the file, says the results are safe in Temporal
// and gives the command that writes them again.

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = dirs.inRepo('write-faults-');
  writeRecordingSuite(dir, 10);
  env = {
    TEMPORAL_ADDRESS: temporalAddress(),
    LLM_EVALS_TASK_QUEUE: `write-faults-${randomUUID()}`,
    RECORDING_API_KEY: 'test-key',
    CALL_DELAY_MS: '5',
    RECORD_FILE: recordFileIn(dir, 'calls'),
  };
  // The helper is compiled into a cache on first use: done here, so the limit below meets only what the run saves.
  const cases = await runCli(['cases'], { cwd: dir, env });
  expect(cases.code, cases.stderr).toBe(0);
});

/** The real CLI with files limited to `kib` KiB: a write past it fails (EFBIG) after writing up to the limit. */
function runLimited(kib: number, args: string[]): Promise<CliResult> {
  const child = spawn('bash', ['-c', `ulimit -f ${kib}; exec "$0" "$@"`, process.execPath, BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, stdout: stripAnsi(stdout), stderr: stripAnsi(stderr) })),
  );
}

const leftovers = (folder: string) =>
  existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.tmp')) : [];

describe('a write that fails part way', () => {
  let runId: string;

  it('leaves no truncated snapshot, names it, and the command it gives writes it whole', async () => {
    const compare = await runLimited(4, ['compare', '--no-open', '--display', 'none']);
    expect(compare.code, compare.stderr + compare.stdout).toBe(1);
    runId = /run (\S+) started/.exec(compare.stderr)![1]!;
    const file = `evals/results/${runId}.json`;
    expect(compare.stderr).toContain(`could not write ${file} (EFBIG`);
    expect(compare.stderr).toContain("The run's results are safe in Temporal");
    const again = `llm-evals report ${runId} --format json -o ${file}`;
    expect(compare.stderr).toContain(again);
    expect(compare.stderr).not.toContain('run again with -v');
    expect(existsSync(join(dir, file))).toBe(false);
    expect(leftovers(join(dir, 'evals/results'))).toEqual([]);

    const redo = await runCli(again.split(' ').slice(1), { cwd: dir, env });
    expect(redo.code, redo.stderr).toBe(0);
    expect(redo.stdout).toBe('');
    const saved = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { results: unknown[] };
    expect(saved.results).toHaveLength(20);
  }, 120_000);

  it('leaves no truncated report, names it, and says how to write it again', async () => {
    // The limit lets the report's own snapshot through (it is written first) and stops the larger HTML.
    const whole = await runCli(['report', runId, '-o', 'whole.html'], { cwd: dir, env });
    expect(whole.code, whole.stderr).toBe(0);
    const snapshotKib = Math.ceil(statSync(join(dir, `evals/results/${runId}.json`)).size / 1024) + 1;
    expect(statSync(join(dir, 'whole.html')).size).toBeGreaterThan(snapshotKib * 1024);

    const report = await runLimited(snapshotKib, ['report', runId, '-o', 'out.html']);
    expect(report.code, report.stderr).toBe(1);
    expect(report.stderr).toContain('could not write out.html (EFBIG');
    expect(report.stderr).toContain(`write the report again with: llm-evals report ${runId} -o out.html`);
    expect(existsSync(join(dir, 'out.html'))).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  }, 120_000);
});
