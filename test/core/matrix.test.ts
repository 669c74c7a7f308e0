import { describe, expect, it } from 'vitest';
import {
  contenderKey,
  expandContenders,
  planExperiments,
  repeatContenders,
  withoutRepeat,
  type LineupEntry,
} from '../../src/core/matrix.ts';

const entry = (over: Partial<LineupEntry>): LineupEntry => ({
  id: 'fake/echo',
  provider: 'fake',
  requestType: 'prompt',
  model: 'echo',
  effort: ['default'],
  temperature: [null],
  maxTokens: null,
  limits: [],
  ...over,
});

describe('contenderKey', () => {
  it.each([
    [
      { provider: 'p', id: 'a/b', effort: 'default', temperature: null, maxTokens: null },
      'p:a/b effort=default',
    ],
    [
      { provider: 'p', id: 'a/b', effort: 'low', temperature: 0.1, maxTokens: null },
      'p:a/b effort=low t=0.1',
    ],
    [
      { provider: 'p', id: 'a/b', effort: 'high', temperature: 0, maxTokens: 512 },
      'p:a/b effort=high t=0 max=512',
    ],
  ])('%j → %s', (contender, key) => {
    expect(contenderKey(contender)).toBe(key);
  });
});

describe('expandContenders', () => {
  it.each([
    ['one value each', [entry({})], ['fake:fake/echo effort=default']],
    [
      'an effort list',
      [entry({ effort: ['default', 'low'] })],
      ['fake:fake/echo effort=default', 'fake:fake/echo effort=low'],
    ],
    [
      'effort × temperature multiply',
      [entry({ effort: ['low', 'high'], temperature: [0, 0.7] })],
      [
        'fake:fake/echo effort=low t=0',
        'fake:fake/echo effort=low t=0.7',
        'fake:fake/echo effort=high t=0',
        'fake:fake/echo effort=high t=0.7',
      ],
    ],
    [
      'a model listed twice with the same settings runs once',
      [entry({}), entry({ effort: ['default', 'low'] })],
      ['fake:fake/echo effort=default', 'fake:fake/echo effort=low'],
    ],
    [
      'the same id through two providers stays two contenders',
      [
        entry({ provider: 'typesafe', id: 'typesafe/jev' }),
        entry({ provider: 'openrouter', id: 'typesafe/jev' }),
      ],
      ['typesafe:typesafe/jev effort=default', 'openrouter:typesafe/jev effort=default'],
    ],
    [
      'lineup order is kept',
      [entry({ id: 'fake/parrot', model: 'parrot' }), entry({})],
      ['fake:fake/parrot effort=default', 'fake:fake/echo effort=default'],
    ],
  ])('%s', (_name, entries, keys) => {
    expect(expandContenders(entries).map((c) => c.key)).toEqual(keys);
  });

  it('carries provider, model and limits into each contender', () => {
    const [c] = expandContenders([
      entry({ provider: 'openrouter', id: 'x/y', model: 'x/y', limits: ['openrouter'] }),
    ]);
    expect(c).toMatchObject({
      provider: 'openrouter',
      id: 'x/y',
      model: 'x/y',
      limits: ['openrouter'],
      effort: 'default',
    });
  });
});

describe('planExperiments', () => {
  const contenders = expandContenders([
    entry({ effort: ['default', 'low'] }),
    entry({ id: 'fake/parrot', model: 'parrot' }),
  ]);

  it.each([
    [
      '3 contenders × 2 datasets',
      [
        { name: 'a', caseKeys: ['a/1'] },
        { name: 'b', caseKeys: ['b/1', 'b/2'] },
      ],
      6,
    ],
    [
      'an empty dataset is left out',
      [
        { name: 'a', caseKeys: ['a/1'] },
        { name: 'b', caseKeys: [] },
      ],
      3,
    ],
    ['no datasets, no experiments', [], 0],
  ])('%s', (_name, datasets, count) => {
    expect(planExperiments(contenders, datasets)).toHaveLength(count);
  });

  it('numbers experiments dataset by dataset with ids safe for workflow ids', () => {
    const experiments = planExperiments(contenders, [{ name: 'my data', caseKeys: ['my data/x'] }]);
    expect(experiments.map((e) => e.id)).toEqual(['001-my_data', '002-my_data', '003-my_data']);
    expect(experiments[2]).toMatchObject({
      contender: 'fake:fake/parrot effort=default',
      dataset: 'my data',
      caseKeys: ['my data/x'],
    });
  });
});

describe('repeatContenders (--repeat)', () => {
  const base = { provider: 'p', id: 'p/m', effort: 'low', temperature: 0.7, maxTokens: null };
  const one = { ...base, key: contenderKey(base), model: 'm', limits: ['p'] };

  it.each<[number | undefined, string[], (number | undefined)[]]>([
    [undefined, ['p:p/m effort=low t=0.7'], [undefined]],
    [1, ['p:p/m effort=low t=0.7'], [undefined]],
    [3, ['p:p/m effort=low t=0.7 #1', 'p:p/m effort=low t=0.7 #2', 'p:p/m effort=low t=0.7 #3'], [1, 2, 3]],
  ])('%s times: keys and seeds', (times, keys, seeds) => {
    const list = repeatContenders([one], times);
    expect(list.map((c) => c.key)).toEqual(keys);
    expect(list.map((c) => c.seed)).toEqual(seeds);
    expect(list.map((c) => c.limits)).toEqual(keys.map(() => ['p']));
    for (const c of list) expect(withoutRepeat(c)).toEqual(one);
  });
});
