import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCliLong } from '../helpers/cli.ts';
import { recordFileIn, RECORDING_MODELS, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

describe('compare --repeat N', () => {
  it('runs each case N times per contender, seeded, and ranks means with 95 % intervals', async () => {
    const dir = dirs.inRepo('repeat-');
    const suite = writeRecordingSuite(dir, 4);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `repeat-${randomUUID()}`,
      RECORDING_API_KEY: 'test-key',
      CALL_DELAY_MS: '5',
      RECORD_FILE: recordFileIn(dir),
      COLUMNS: '200',
    };
    const result = await runCliLong(['compare', '--repeat', '3', '--no-open'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);

    // Every (model, case) called 3 times, once with each seed.
    const calls = suite.read(env.RECORD_FILE);
    expect(calls).toHaveLength(suite.calls.length * 3);
    const seeds = new Map<string, number[]>();
    for (const call of calls) {
      const name = `${call.model} ${(JSON.parse(call.user) as { id: string }).id}`;
      seeds.set(name, [...(seeds.get(name) ?? []), call.seed!].sort());
    }
    expect([...seeds.keys()].sort()).toEqual([...suite.calls].sort());
    for (const list of seeds.values()) expect(list).toEqual([1, 2, 3]);

    // One row per model and dataset, its means with ± half-intervals; the glossary names the method.
    for (const model of RECORDING_MODELS) {
      for (const dataset of ['north', 'south']) {
        const rows = result.stdout
          .split('\n')
          .filter((l) => l.startsWith(`│ ${dataset} `) && l.includes(` ${model} `));
        expect(rows, `${dataset} ${model}`).toHaveLength(1);
        expect(rows[0]).toMatch(/\d+\.\d% ±\d+\.\d/);
      }
    }
    expect(result.stdout).toContain(
      "Over 3 repeats: the mean ± half its 95 % t-interval (Student's t on the repeats'",
    );
    // Progress lines name each repeat.
    expect(result.stderr).toContain('rec/alpha #3');

    const [file] = readdirSync(join(dir, 'evals/results'));
    const snapshot = JSON.parse(readFileSync(join(dir, 'evals/results', file!), 'utf8')) as Snapshot;
    expect(snapshot.settings.repeat).toBe(3);
    expect(snapshot.contenders.map((c) => c.seed)).toEqual([1, 2, 3, 1, 2, 3]);
  }, 300_000);
});
