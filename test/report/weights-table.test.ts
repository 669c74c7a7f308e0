import { describe, expect, it } from 'vitest';
import type { Metric } from '../../src/api/types.ts';
import { stripAnsi } from '../../src/report/table.ts';
import { renderWeights } from '../../src/report/weights-table.ts';

const METRICS: Metric[] = [
  { name: 'score', description: 'Mean worth.', primary: true },
  { name: 'exact', description: 'All right.' },
  { name: 'invalid_rate', description: 'Broken values.' },
];

describe('renderWeights', () => {
  it.each<[string, Record<string, number> | undefined]>([
    ['weights with an unweighted metric', { exact: 10, score: 5, cost: -5, errors: -8, latency: -2 }],
    ['no weights', undefined],
  ])('%s', (_, weights) => {
    expect(stripAnsi(renderWeights(weights, METRICS, 'evals/.llm-evals.config.yml'))).toMatchSnapshot();
  });
});
