import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../src/temporal/worker.ts';

const dir = join(import.meta.dirname, 'fixtures', 'histories');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('replaying committed histories with the current workflow code', () => {
  it('has histories of a run, its gate and its experiments to replay', () => {
    expect(files.some((f) => f.startsWith('compareRun-'))).toBe(true);
    expect(files.some((f) => f.startsWith('runGate-'))).toBe(true);
    expect(files.some((f) => f.startsWith('experiment-'))).toBe(true);
  });

  it('replays every one without a nondeterminism error', async () => {
    const histories = files.map((file) => ({
      workflowId: file,
      history: historyFromJSON(JSON.parse(readFileSync(join(dir, file), 'utf8'))),
    }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
