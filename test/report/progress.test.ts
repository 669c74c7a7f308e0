import { describe, expect, it } from 'vitest';
import { contenderKey, type Contender } from '../../src/core/matrix.ts';
import { renderProgress } from '../../src/report/progress.ts';
import { stripAnsi } from '../helpers/cli.ts';

const base = { provider: 'fake', id: 'fake/echo', effort: 'default', temperature: null, maxTokens: null };
const contender: Contender = { ...base, key: contenderKey(base), model: 'echo', limits: [] };

describe('the live bars', () => {
  it.each([
    [0, ''],
    [1, ' 1 error'],
    [2, ' 2 errors'],
  ])('%i failed cases read %j at the end of the line', (errors, tail) => {
    const progress = {
      runId: 'r',
      experiments: [{ id: 'e', total: 3, done: 3, errors, state: 'completed' as const }],
    };
    const [line] = renderProgress(
      progress,
      [{ id: 'e', contender: contender.key, dataset: 'd' }],
      [contender],
    );
    expect(stripAnsi(line!)).toMatch(new RegExp(`3/3 fake/echo d${tail}$`));
  });
});
