import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliLong } from '../helpers/cli.ts';
import {
  keyHash,
  recordFileIn,
  writeRecordingSuite,
  type RecordingSuite,
} from '../helpers/recording-suite.ts';
import { filesUnder, historyText } from '../helpers/leaks.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { freeServerPort, withClient } from '../helpers/temporal.ts';

// D7: the provider's key reaches the worker through its environment and nothing else: not the workflows' histories
// (inputs, results, memos, search attributes, failures), not the snapshot, not the logs, not the server's files.

const dirs = new TempDirs();
const KEY = `sk-rec-${randomUUID()}`;
let dir: string;
let suite: RecordingSuite;
let env: NodeJS.ProcessEnv;
let runId: string;
let cli: { stdout: string; stderr: string };

beforeAll(async () => {
  dir = dirs.inRepo('secrets-');
  suite = writeRecordingSuite(dir, 6);
  env = {
    TEMPORAL_ADDRESS: '',
    LLM_EVALS_STATE_DIR: join(dir, '.llm-evals'),
    LLM_EVALS_TEMPORAL_PORT: String(await freeServerPort()),
    RECORD_FILE: recordFileIn(dir),
    RECORDING_API_KEY: KEY,
    CALL_DELAY_MS: '20',
  };
  const result = await runCliLong(['compare', '--no-open'], { cwd: dir, env });
  if (result.code !== 0) throw new Error(`compare exited ${result.code}:\n${result.stderr}`);
  runId = /run (\S+) started/.exec(result.stderr)![1]!;
  cli = result;
}, 120_000);

afterAll(async () => {
  if (dir) await runCli(['server', 'stop', '--force'], { cwd: dir, env });
  dirs.removeAll();
});

describe('API keys never enter Temporal, snapshots or logs (D7)', () => {
  it('the worker read the key from its environment for every call', () => {
    const calls = suite.read(env.RECORD_FILE!);
    expect(calls).toHaveLength(suite.calls.length);
    expect(new Set(calls.map((c) => c.keyHash))).toEqual(new Set([keyHash(KEY)]));
  });

  it('no workflow history of the run holds the key', async () => {
    const server = JSON.parse(readFileSync(join(dir, '.llm-evals/server.json'), 'utf8')) as {
      address: string;
    };
    await withClient(server.address, async (client) => {
      const histories: { workflowId: string; text: string }[] = [];
      // The project's own server holds this run only: read every execution on it, whatever it is tagged with.
      for await (const execution of client.workflow.list()) {
        const handle = client.workflow.getHandle(execution.workflowId, execution.runId);
        histories.push({ workflowId: execution.workflowId, text: historyText(await handle.fetchHistory()) });
      }
      const ids = histories.map((h) => h.workflowId);
      expect(ids).toContain(`llm-evals/${runId}`);
      expect(ids.filter((id) => id.startsWith(`llm-evals/${runId}/`)).length).toBeGreaterThanOrEqual(4);
      // The decoding works: each case's expected answer, echoed as the reply, is in the slices' results.
      for (const key of suite.caseKeys)
        expect(
          histories.some((h) => h.text.includes(key)),
          key,
        ).toBe(true);
      expect(histories.filter((h) => h.text.includes(KEY)).map((h) => h.workflowId)).toEqual([]);
    });
  });

  it('neither the snapshot, the logs, the server’s files nor the CLI’s output hold the key', () => {
    const files = [
      ...filesUnder(join(dir, 'evals/results')),
      ...filesUnder(join(dir, 'log')),
      ...filesUnder(join(dir, '.llm-evals')),
    ];
    expect(files.filter((f) => f.includes('/evals/results/') && f.endsWith('.json'))).toHaveLength(1);
    expect(files.some((f) => f.endsWith('temporal.db'))).toBe(true);
    const snapshot = readFileSync(
      files.find((f) => f.includes('/evals/results/'))!,
      'utf8',
    );
    expect(snapshot).toContain(runId);
    // The server's files hold the run's payloads as plain bytes: a case's answer is there, the key is not.
    const server = files.filter((f) => f.includes('/.llm-evals/'));
    expect(server.some((f) => readFileSync(f).includes(suite.caseKeys[0]!))).toBe(true);
    expect(files.filter((f) => readFileSync(f).includes(KEY))).toEqual([]);
    expect(cli.stdout + cli.stderr).not.toContain(KEY);
  });
});
