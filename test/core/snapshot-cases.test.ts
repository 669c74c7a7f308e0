import { describe, expect, it } from 'vitest';
import { contenderKey } from '../../src/core/matrix.ts';
import type { CaseResult } from '../../src/core/results.ts';
import type { PlannedCases } from '../../src/core/run-input.ts';
import { buildSnapshot, type CaseOnDisk, type SnapshotParts } from '../../src/core/snapshot.ts';
import { RUN_HEADER } from '../helpers/temporal.ts';

const base = { provider: 'fake', id: 'fake/m', effort: 'default', temperature: null, maxTokens: null };
const contender = { ...base, key: contenderKey(base), model: 'm', limits: [] };

function onDisk(key: string, hash: string, metadata: CaseOnDisk['metadata'] = {}): CaseOnDisk {
  const [dataset = '', id = ''] = key.split('/');
  return { key, id, dataset, variant: id, input: `input of ${key}`, expected: { key }, metadata, hash };
}

function result(caseKey: string): CaseResult {
  return {
    experimentId: '001-d',
    caseKey,
    status: 'scored',
    score: 1,
    metrics: {},
    outcomes: {},
    diagnostics: {},
    usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 },
    latency: 1,
    duration: 1,
    startedAt: '2026-12-04T00:00:00.000Z',
    finishedAt: '2026-12-04T00:00:01.000Z',
    attempts: 1,
  };
}

/** A reader of the cases as `eachCase` is: one pass only, and it fails the test if read twice. */
function readOnce(cases: readonly CaseOnDisk[]): Iterable<CaseOnDisk> & { reads: number } {
  const reader = {
    reads: 0,
    *[Symbol.iterator]() {
      reader.reads++;
      if (reader.reads > 1) throw new Error('the cases were read twice');
      yield* cases;
    },
  };
  return reader;
}

function parts(cases: Iterable<CaseOnDisk>, results: CaseResult[], datasets?: PlannedCases): SnapshotParts {
  return {
    runId: 'r',
    header: RUN_HEADER,
    input: {
      runId: 'r',
      suite: 's',
      contenders: [contender],
      experiments: [{ id: '001-d', contender: 0, dataset: 'd' }],
      ...(datasets ? { datasets } : {}),
      parallelism: 1,
      concurrency: 1,
      limits: {},
    },
    status: 'completed',
    results,
    cases,
    finishedAt: '2026-12-04T00:00:01.000Z',
  };
}

describe('a snapshot reads the cases on disk once', () => {
  // On disk in another order than planned; d/c was edited since (its hash differs), d/x is not planned and d/b is
  // planned but gone.
  const disk = [onDisk('d/x', 'hx'), onDisk('d/c', 'edited', { source: 'log' }), onDisk('d/a', 'ha')];

  it('keeps the planned ones, in the plan’s order, with the hashes planned', () => {
    const reader = readOnce(disk);
    const plan: PlannedCases = {
      d: [
        ['d/c', 'hc'],
        ['d/b', 'hb'],
        ['d/a', 'ha'],
      ],
    };
    const snapshot = buildSnapshot(parts(reader, [result('d/a'), result('d/c')], plan));
    expect(reader.reads).toBe(1);
    expect(snapshot.cases).toEqual([
      { ...onDisk('d/c', 'hc', { source: 'log' }) },
      { ...onDisk('d/a', 'ha') },
    ]);
    // The file writes a case's fields in this order.
    expect(Object.keys(snapshot.cases[0]!)).toEqual([
      'key',
      'id',
      'dataset',
      'variant',
      'input',
      'expected',
      'metadata',
      'hash',
    ]);
    expect(snapshot.experiments[0]!.caseKeys).toEqual(['d/c', 'd/b', 'd/a']);
  });

  it('without the plan’s lists, keeps those with a result in the order they finished, with the hash on disk', () => {
    const reader = readOnce(disk);
    const snapshot = buildSnapshot(parts(reader, [result('d/c'), result('d/a'), result('d/gone')]));
    expect(reader.reads).toBe(1);
    expect(snapshot.cases.map((c) => [c.key, c.hash])).toEqual([
      ['d/c', 'edited'],
      ['d/a', 'ha'],
    ]);
    expect(snapshot.experiments[0]!.caseKeys).toEqual(['d/c', 'd/a', 'd/gone']);
  });
});
