import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discover } from '../../src/suite/discover.ts';
import { loadSuite } from '../../src/suite/load.ts';
import { TempDirs, TOY_SUITE, writeTree } from '../helpers/suite-dir.ts';

// A judge's calls ask the run's gate for a slot by an update (a round trip through Temporal) only on the keys a rate
// limit or max_concurrency counts, as a contender's do: with none, they read the gate's shared look like the
// contenders'. A judge that named every key paid that round trip on each verdict (16× N·L/C in bench/judge.ts).

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const lineup = (section: string) =>
  [
    `import: ${join(TOY_SUITE, 'lib/toy-suite.ts')}`,
    'adapter: ToyAdapter',
    'scorer: ToyScorer',
    'request_types: [prompt]',
    `lab:\n  base_url: http://127.0.0.1:9/v1\n${section}  models: [m, { model: g, rate_limit: { burst: 1, per_minute: 60 } }]`,
    'judge:\n  models: [lab/judge, lab/g, openai/gpt-4o-mini]\n  rubric: r\n  scale: pass_fail',
    '',
  ].join('\n');

describe("a judge model's rate-limit keys", () => {
  it.each([
    ['no limit anywhere', '', [[], ['lab:lab/g'], []]],
    [
      'a section rate_limit',
      '  rate_limit: { burst: 2, per_minute: 60 }\n',
      [['lab'], ['lab', 'lab:lab/g'], []],
    ],
    ['a section max_concurrency', '  max_concurrency: 4\n', [['lab'], ['lab', 'lab:lab/g'], []]],
  ])('%s: only the keys a limit counts', async (_what, section, expected) => {
    const root = writeTree(dirs.os(), { 'evals/.llm-evals.config.yml': lineup(section) });
    const suite = await loadSuite(discover({ cwd: root })!);
    expect(['lab/judge', 'lab/g', 'openai/gpt-4o-mini'].map((id) => suite.judges.get(id)!.limits)).toEqual(
      expected,
    );
  });
});
