import { describe, expect, it } from 'vitest';
import type { RunInput } from '../../src/core/run-input.ts';
import { oneExperiment } from '../../src/core/snapshot.ts';

const base: RunInput = {
  runId: 'r',
  suite: 's',
  contenders: [],
  experiments: [],
  parallelism: 4,
  concurrency: 2,
  limits: {},
};
const plan = {
  digest: 'p',
  datasets: { north: { size: 100_000, digest: 'n' }, south: { size: 3, digest: 's' } },
};
const listed = { north: [['north/1', 'h1'] as [string, string]], south: [] };

describe('one experiment of an input', () => {
  const experiments = [
    { id: 'e1', contender: 0, dataset: 'north' },
    { id: 'e2', contender: 1, dataset: 'south' },
  ];
  it.each<[string, Partial<RunInput>, string, Partial<RunInput>]>([
    [
      'keeps its own dataset of a listed input',
      { experiments, datasets: listed },
      'e1',
      { experiments: [experiments[0]!], datasets: { north: listed.north } },
    ],
    [
      'keeps an empty dataset empty',
      { experiments, datasets: listed },
      'e2',
      { experiments: [experiments[1]!], datasets: { south: [] } },
    ],
    [
      'lists none for a dataset the input does not list',
      { experiments: [{ id: 'e3', contender: 0, dataset: 'west' }], datasets: listed },
      'e3',
      { experiments: [{ id: 'e3', contender: 0, dataset: 'west' }], datasets: {} },
    ],
    [
      'keeps the plan reference of a planned input',
      { experiments, plan },
      'e2',
      { experiments: [experiments[1]!], plan },
    ],
    [
      'is the input itself for an unknown experiment',
      { experiments, datasets: listed },
      'e9',
      { experiments, datasets: listed },
    ],
  ])('%s', (_, fields, id, expected) => {
    expect(oneExperiment({ ...base, ...fields }, id)).toEqual({ ...base, ...expected });
  });
});
