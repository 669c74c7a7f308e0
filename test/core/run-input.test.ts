import { describe, expect, it } from 'vitest';
import {
  casesOf,
  datasetNames,
  datasetSize,
  inputTooLarge,
  PAYLOAD_LIMIT,
  type RunInput,
} from '../../src/core/run-input.ts';

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

describe('a run input carries its cases by reference', () => {
  it.each<[string, Partial<RunInput>, Record<string, number>]>([
    ['from its plan', { plan }, { north: 100_000, south: 3 }],
    ['listed, as runs before the plan store', { datasets: listed }, { north: 1, south: 0 }],
    ['neither', {}, {}],
  ])('sizes %s', (_, fields, sizes) => {
    const input = { ...base, ...fields };
    expect(datasetNames(input)).toEqual(Object.keys(sizes));
    for (const [name, size] of Object.entries(sizes)) expect(datasetSize(input, name)).toBe(size);
    expect(datasetSize(input, 'elsewhere')).toBe(0);
  });

  it('lists the cases as the input carries them, else as the plan store has them, else not at all', () => {
    const store = { p: listed };
    const read = (d: string) => store[d as keyof typeof store];
    expect(casesOf({ ...base, datasets: listed }, () => undefined)).toBe(listed);
    expect(casesOf({ ...base, plan }, read)).toBe(listed);
    expect(casesOf({ ...base, plan: { ...plan, digest: 'gone' } }, read)).toBeUndefined();
  });

  it('a 100,000-case plan fits in the input; a lineup past the payload limit is refused in our words', () => {
    expect(inputTooLarge({ ...base, plan })).toBeUndefined();
    const contender = { key: 'k'.repeat(1000), id: 'x', provider: 'p', model: 'm', effort: 'default' };
    const many = Array.from({ length: 2200 }, () => ({
      ...contender,
      temperature: null,
      maxTokens: null,
      limits: [],
    }));
    const said = inputTooLarge({ ...base, plan, contenders: many });
    expect(JSON.stringify(many).length).toBeGreaterThan(PAYLOAD_LIMIT);
    expect(said).toMatch(
      /^the run's input is 2\.\d MB, over the 2 MB a Temporal server takes in one payload/,
    );
  });
});
