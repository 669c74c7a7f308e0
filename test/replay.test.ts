import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { plainWorkflowBundle } from './helpers/plain-bundle.ts';
import { HISTORY_PATHS, type HistoryJson } from './helpers/history-paths.ts';
import { REPO } from './helpers/suite-dir.ts';

// Histories recorded from real runs of each release (dev/record-histories.ts), replayed with the current workflow
// code: a change to workflows/ or the pure core they run that would break a run in flight fails here, in CI.

const dir = join(import.meta.dirname, 'fixtures', 'histories');
const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const files: string[] = [];
const walk = (at: string) => {
  for (const entry of readdirSync(at, { withFileTypes: true })) {
    if (entry.isDirectory()) walk(join(at, entry.name));
    else if (entry.name.endsWith('.json')) files.push(join(at, entry.name));
  }
};
walk(dir);

describe('replaying committed histories with the current workflow code', () => {
  it.each(HISTORY_PATHS.map((p) => [p.name, p] as const))(
    `this release (${version}) has a recorded history on the path %s`,
    (name, path) => {
      const file = join(dir, version, `${name}.json`);
      expect(existsSync(file), `no ${relative(REPO, file)}: run dev/record-histories.ts`).toBe(true);
      expect(path.matches(JSON.parse(readFileSync(file, 'utf8')) as HistoryJson), path.what).toBe(true);
    },
  );

  it('replays every one, of every release, without a nondeterminism error', async () => {
    const histories = files.map((file) => ({
      workflowId: relative(dir, file),
      history: historyFromJSON(JSON.parse(readFileSync(file, 'utf8'))),
    }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: await plainWorkflowBundle() },
      histories,
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
