import { describe, expect, it } from 'vitest';
import type { RunInput } from '../../src/core/run-input.ts';
import { oneExperiment } from '../../src/core/snapshot.ts';

const experiments = [
  { id: 'e1', contender: 0, dataset: 'east' },
  { id: 'e2', contender: 1, dataset: 'west' },
];
const lists = {
  east: [['east/1', 'h1'] as [string, string], ['east/2', 'h2'] as [string, string]],
  west: [],
};
const planRef = { digest: 'd', datasets: { east: { size: 2, digest: 'e' }, west: { size: 0, digest: 'w' } } };
const input = (fields: Partial<RunInput>): RunInput => ({
  runId: 'run',
  suite: 'suite',
  contenders: [],
  experiments,
  parallelism: 1,
  concurrency: 1,
  limits: {},
  ...fields,
});

describe('one experiment of a run input', () => {
  it.each<[string, Partial<RunInput>, string, Partial<RunInput>]>([
    [
      'keeps its own dataset of a listed input',
      { datasets: lists },
      'e1',
      { experiments: [experiments[0]!], datasets: { east: lists.east } },
    ],
    [
      'keeps an empty dataset empty',
      { datasets: lists },
      'e2',
      { experiments: [experiments[1]!], datasets: { west: [] } },
    ],
    [
      'lists none for a dataset the input does not list',
      { experiments: [{ id: 'e3', contender: 0, dataset: 'north' }], datasets: lists },
      'e3',
      { experiments: [{ id: 'e3', contender: 0, dataset: 'north' }], datasets: {} },
    ],
    [
      'keeps the plan reference of a planned input',
      { plan: planRef },
      'e2',
      { experiments: [experiments[1]!], plan: planRef },
    ],
    ['is the input itself for an unknown experiment', { datasets: lists }, 'e9', { datasets: lists }],
  ])('%s', (_, fields, id, expected) => {
    expect(oneExperiment(input(fields), id)).toEqual(input(expected));
  });
});
