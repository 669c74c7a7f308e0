import { describe, expect, it } from 'vitest';
import { planExperiments, repeatContenders } from '../../src/core/matrix.ts';
import type { Plan } from '../../src/core/plan.ts';
import { renderMatrix } from '../../src/report/matrix-table.ts';
import { stripAnsi } from '../../src/report/text-width.ts';
import { crowdSnapshot } from './crowd.ts';

/** A dry run's plan of `count` contenders over two datasets, each run `repeat` times. */
function plan(count: number, repeat?: number): Plan {
  const bases = crowdSnapshot(count).contenders;
  const contenders = repeatContenders(bases, repeat);
  const datasets = ['invoices', 'receipts'].map((name) => ({ name, caseKeys: [`${name}/clear/001`] }));
  return {
    version: 1,
    suite: { name: 's', root: '/s', projectDir: '/s', configFile: '/s/c.yml' },
    requestTypes: ['prompt'],
    contenders,
    refused: [],
    cases: datasets.map((d) => ({
      key: d.caseKeys[0]!,
      id: 'clear/001',
      dataset: d.name,
      variant: 'clear',
      hash: 'h',
    })),
    experiments: planExperiments(contenders, datasets),
    limits: {},
    inFlight: {},
    settings: { parallelism: 1, concurrency: 1, ...(repeat ? { repeat } : {}) },
    options: {},
  };
}

describe('the dry run’s matrix', () => {
  it.each<[string, number | undefined, string]>([
    ['without --repeat', undefined, '6 experiments (3 contenders × 2 datasets), 2 cases'],
    [
      'with --repeat 3: contenders, not repeats, counted',
      3,
      '18 experiments (3 contenders × 3 repeats × 2 datasets)',
    ],
  ])('%s', (_, repeat, line) => {
    const text = stripAnsi(renderMatrix(plan(3, repeat), new Map(), { width: 200 }));
    expect(text).toContain(line);
    const header = text
      .split('\n')[1]!
      .split('│')
      .map((h) => h.trim());
    expect(header).toContain('cases');
    expect(header.includes('repeat'), header.join('|')).toBe(repeat !== undefined);
  });
});
