import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderLeaderboard } from '../../src/report/leaderboard.ts';
import { stripAnsi } from '../../src/report/table.ts';
import { snapshotFixture } from './fixture.ts';

const WEIGHTS = { score: 5, exact: 2, errors: -3, cost: -2, latency: -1 };

describe('renderLeaderboard (TUI)', () => {
  it.each([
    ['overall totals, by score', snapshotFixture(), {}],
    ['variant totals', snapshotFixture(), { totals: 'variant' as const }],
    [
      'both totals, by wscore, with every experiment’s score',
      snapshotFixture(WEIGHTS),
      { totals: 'both' as const, scores: true, snapshotFile: 'evals/results/run.json' },
    ],
  ])('%s', (_, snapshot, options) => {
    expect(stripAnsi(renderLeaderboard(snapshot, options))).toMatchSnapshot();
  });

  it.each<[string, Record<string, number> | undefined, string[]]>([
    ['no weights: no wscore, latency or p95 column', undefined, []],
    [
      'weights add wscore and the weighted latency and p95',
      { score: 1, latency: -1, p95: -1 },
      ['wscore', 'latency', 'p95'],
    ],
  ])('%s', (_, weights, extra) => {
    const header = stripAnsi(renderLeaderboard(snapshotFixture(weights))).split('\n')[2]!;
    const columns = header
      .split('│')
      .map((c) => c.trim())
      .filter(Boolean);
    const base = [
      'dataset',
      'model',
      'effort',
      'temp',
      'score',
      'exact',
      'vs_best',
      'errors',
      'time',
      'tok_in',
      'tok_out',
      'cost',
    ];
    expect(columns.sort()).toEqual([...base, ...extra].sort());
  });

  it('names a best value per dataset, and never a contender with errors', () => {
    const lines = stripAnsi(renderLeaderboard(snapshotFixture(), { width: 400 })).split('\n');
    // Two cases per dataset tell no contender from the best: every other is tied, so the verdict names them.
    expect(lines).toContain(
      'north: best fake/alpha t=0.1, 95.0% score at $0.0080, tied with other/gamma (p = 1.00, 2 cases), ' +
        'fake/beta effort=low t=0.1 (p = 1.00, 2 cases); best value other/gamma, 93.5% score at $0.0010',
    );
    // Alpha is 10 points below gamma on both south cases: a difference without spread, but two cases of one sign are
    // what a coin gives half the time (sign test, p = 0.5): tied, not worse.
    expect(lines).toContain(
      'south: best and best value other/gamma, 90.0% score at $0.0010, tied with fake/alpha t=0.1 (p = 1.00, 2 cases), ' +
        'fake/beta effort=low t=0.1 (p = 1.00, 2 cases)',
    );
  });

  it('links each experiment to the HTML report’s row when there is one', () => {
    const text = stripAnsi(
      renderLeaderboard(snapshotFixture(), { scores: true, reportUrl: 'file:///r/run.html' }),
    );
    expect(text).toContain('file:///r/run.html#experiment-001-north');
  });

  it('prefers a tracker’s link', () => {
    const snapshot = { ...snapshotFixture(), links: { '001-north': 'https://tracker.example/e/1' } };
    expect(stripAnsi(renderLeaderboard(snapshot, { scores: true }))).toContain('https://tracker.example/e/1');
  });
});

describe('`time` means one thing everywhere', () => {
  it('the README and the glossary both call it the wall time of the cases, not a time per call', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const reading = readme.slice(readme.indexOf('**Reading the report.**'));
    const said = reading.slice(0, reading.indexOf('\n\n'));
    expect(said).not.toMatch(/median `time`|`time` per call/);
    expect(said).toContain('`time` (wall time:');
    const glossary = stripAnsi(renderLeaderboard(snapshotFixture()));
    expect(glossary).toMatch(/ {2}time: Wall time:/);
    expect(glossary).not.toMatch(/ {2}time: [^\n]*median/);
  });
});

describe('errors that name their case', () => {
  it('a snapshot saved before they were grouped still shows one group per reason, with one example', () => {
    const snapshot = snapshotFixture();
    const beta = snapshot.contenders[1]!.key;
    const keys = ['d/v/0001', 'd/v/0002', 'd/v/0003'];
    snapshot.failures = [
      {
        contender: beta,
        cases: 4,
        scored: 1,
        errors: 3,
        messages: keys.map((k) => ({ message: `this worker has no case ${k}`, count: 1, example: k })),
      },
    ];
    const lines = stripAnsi(renderLeaderboard(snapshot, { width: 200 }))
      .split('\n')
      .filter((l) => l.includes(' × '));
    expect(lines).toEqual([
      '    fake/beta effort=low t=0.1: 3 × this worker has no case ‹case› (e.g. d/v/0001)',
    ]);
    expect(stripAnsi(renderLeaderboard(snapshot))).toContain('3 of 4 cases failed');
  });
});
