import { describe, expect, it } from 'vitest';
import type { RunDigest } from '../../src/core/run-change.ts';
import type { ScheduleShow } from '../../src/report/schedule-text.ts';
import { caseFlips } from '../../src/view/flips.ts';
import { schedulePage } from '../../src/view/more-pages.ts';
import { snapshotFixture } from '../report/fixture.ts';

/** A run's digest with one contender on one dataset and these cases' primary values. */
function digest(runId: string, values: Record<string, number | null>, contender = 'a'): RunDigest {
  return {
    runId,
    createdAt: '2026-01-01T00:00:00.000Z',
    primary: 'exact',
    contenders: [],
    rows: [],
    cases: {},
    perCase: [{ contender, dataset: 'north', values, replies: {} }],
  };
}

describe('caseFlips', () => {
  it.each<[string, Record<string, number | null>[], [string, (boolean | null)[], number][]]>([
    [
      'steady cases are left out',
      [
        { x: 1, y: 0 },
        { x: 1, y: 0 },
      ],
      [],
    ],
    ['right, wrong, right: two flips', [{ x: 1 }, { x: 0 }, { x: 1 }], [['x', [true, false, true], 2]]],
    ['a partial score is wrong', [{ x: 0.5 }, { x: 1 }], [['x', [false, true], 1]]],
    [
      'a run without it is skipped, not a flip',
      [{ x: 1 }, { x: null }, { y: 0 }, { x: 0 }],
      [['x', [true, null, null, false], 1]],
    ],
    [
      'most flips first, then by case',
      [
        { b: 1, a: 1, c: 0 },
        { b: 0, a: 0, c: 1 },
        { b: 1, a: 0, c: 1 },
      ],
      [
        ['b', [true, false, true], 2],
        ['a', [true, false, false], 1],
        ['c', [false, true, true], 1],
      ],
    ],
  ])('%s', (_, runs, expected) => {
    const flips = caseFlips(runs.map((values, i) => digest(`r${i}`, values)));
    expect(flips.map((f) => [f.caseKey, f.marks, f.flips])).toEqual(expected);
  });

  it('keeps contenders apart', () => {
    const flips = caseFlips([
      {
        ...digest('r0', { x: 1 }),
        perCase: [...digest('r0', { x: 1 }).perCase!, ...digest('r0', { x: 1 }, 'b').perCase!],
      },
      {
        ...digest('r1', { x: 0 }),
        perCase: [...digest('r1', { x: 0 }).perCase!, ...digest('r1', { x: 1 }, 'b').perCase!],
      },
    ]);
    expect(flips.map((f) => `${f.contender} ${f.caseKey} ${f.flips}`)).toEqual(['a x 1']);
  });
});

describe('the schedule page', () => {
  const { contenders } = snapshotFixture();
  const show = {
    schedule: { name: 'nightly', suite: 'toy', when: 'every 1d', paused: false, nextFires: [], fired: 3 },
    primary: 'exact',
    contenders,
    runs: ['r2', 'r1', 'r0'].map((runId, i) => ({
      runId,
      state: 'completed',
      startedAt: new Date(Date.UTC(2026, 0, 3 - i)),
      scores: [{ contender: contenders[0]!.key, dataset: 'north', score: 0.5 + i / 10 }],
    })),
    regression: [],
    problems: [],
    workers: [],
  } as unknown as ScheduleShow;

  it('draws the trend and lists the flipping cases with a mark per run, linked to the newest run', () => {
    const flips = caseFlips([
      digest('r0', { '<b>x</b>': 1 }, contenders[0]!.key),
      digest('r1', { '<b>x</b>': 0 }, contenders[0]!.key),
      digest('r2', { '<b>x</b>': 1 }, contenders[0]!.key),
    ]);
    const html = schedulePage({ show, flips, flipRuns: ['r0', 'r1', 'r2'] });
    expect(html).toContain('<h2>Trend</h2>');
    expect(html).toMatch(/<figure class="trend"><svg/);
    expect(html).toContain('1 case went from right to wrong or back over the last 3 finished runs');
    expect(html).toContain('href="/runs/r2/case?key=%3Cb%3Ex%3C%2Fb%3E"');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<b>x</b>');
    expect(html.match(/<td class="mark (ok|err)">/g)).toEqual([
      '<td class="mark ok">',
      '<td class="mark err">',
      '<td class="mark ok">',
    ]);
  });

  it.each<[string[], string]>([
    [['r0'], 'the schedule needs two finished runs'],
    [['r0', 'r1'], 'No case flipped over the last 2 finished runs'],
  ])('with finished runs %j: %s', (flipRuns, said) => {
    expect(schedulePage({ show, flips: [], flipRuns })).toContain(said);
  });
});
