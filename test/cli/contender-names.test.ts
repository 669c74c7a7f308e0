import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliLong } from '../helpers/cli.ts';
import { editFile, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

/** One model five times over: contenders that differ only in effort, temperature or token budget. */
const TWINS = `    - model: echo
      effort: [default, low]
      temperature: [0.2, 0.7]
    - model: echo
      max_tokens: 64
`;

const NAMES = [
  'fake/echo t=0.2',
  'fake/echo t=0.7',
  'fake/echo effort=low t=0.2',
  'fake/echo effort=low t=0.7',
  'fake/echo max=64',
];

/** The cells of a box table's rows whose first cell matches `first`, trimmed. */
const cells = (text: string, first: RegExp): string[][] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('│'))
    .map((l) =>
      l
        .split('│')
        .slice(1, -1)
        .map((c) => c.trim()),
    )
    .filter((row) => first.test(row[0] ?? ''));

describe('contenders of one model are told apart everywhere', () => {
  it('in the progress lines, the breakdown, the leaderboard and the HTML report', async () => {
    const dir = dirs.toySuite();
    editFile(join(dir, 'evals/.llm-evals.config.yml'), (t) => t.replace(/ {4}- model: echo\n.*\n/, TWINS));
    const env = { TEMPORAL_ADDRESS: temporalAddress() };
    // One experiment at a time: off a terminal, a progress line is printed when its experiment completes, and
    // experiments run side by side may complete in either order.
    const args = ['run', '-m', 'fake/echo', '-d', 'animals', '-j', '1', '--no-open', '-o', 'out/report.html'];
    const { code, stdout, stderr } = await runCliLong(args, { cwd: dir, env, timeoutMs: 120_000 });
    expect(code, stderr).toBe(0);

    const progress = stderr.split('\n').filter((l) => / 4\/4 /.test(l));
    expect(progress.map((l) => l.replace(/^.* 4\/4 /, ''))).toEqual(NAMES.map((n) => `${n} animals`));

    const breakdown = cells(stdout, /^animals\/clear\/001$/).map((row) => row[1]);
    expect(breakdown).toEqual(NAMES);

    const leaderboard = cells(stdout, /^animals$/).map((row) => row.slice(1, 5).join(' '));
    // The echo answers alike whatever the settings: every other contender is tied with the first (= #1).
    expect(leaderboard).toEqual([
      'fake/echo default 0.2 default',
      'fake/echo = #1 default 0.7 default',
      'fake/echo = #1 low 0.2 default',
      'fake/echo = #1 low 0.7 default',
      'fake/echo = #1 default default 64',
    ]);

    const html = readFileSync(join(dir, 'out/report.html'), 'utf8');
    const chips = [...html.matchAll(/<span class="chip">(.*?) [\d.]+%<\/span>/g)].map((m) =>
      m[1]!.replace(/<[^>]+>/g, ''),
    );
    expect(new Set(chips)).toEqual(new Set(NAMES));
    expect(html).toContain('<th>temp</th><th class="num">max_<wbr>tokens</th>');
  }, 150_000);
});
