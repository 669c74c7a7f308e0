import pc from 'picocolors';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderLeaderboard } from '../../src/report/leaderboard.ts';
import { LiveLines } from '../../src/session/live-lines.ts';
import { narrow, splitColumns, type ColumnNeeds } from '../../src/report/table-layout.ts';
import { renderBox, renderTable, type Column } from '../../src/report/table.ts';
import { longestWord, stripAnsi, truncateText, wrapText, wrapProse } from '../../src/report/text-width.ts';
import { snapshotFixture } from './fixture.ts';

const BORDERS = /[│┼┬┴├┤┌┐└┘]/;

/** The columns (by string-width) at which each line of a table has a border character. */
function borderColumns(table: string): number[][] {
  return stripAnsi(table)
    .split('\n')
    .map((line) => {
      const at: number[] = [];
      let column = 0;
      for (const { segment } of new Intl.Segmenter().segment(line)) {
        if (BORDERS.test(segment)) at.push(column);
        column += stringWidth(segment);
      }
      return at;
    });
}

/** Each box of a rendered table (a table split to fit is several) as its lines. */
const boxes = (table: string) =>
  stripAnsi(table)
    .split(/\n(?=┌)/)
    .map((box) => box.split('\n'));

const COLUMNS: Column[] = [
  { header: 'dataset', key: true },
  { header: 'model', key: true },
  { header: 'score', align: 'right' },
  { header: 'cost', align: 'right' },
];

const WIDE_ROWS = [
  ['animals', 'moonshot/kimi-k2 月之暗面', '98.0%', '$0.0100'],
  ['動物', 'zhipu/glm-4.5 智谱清言', '97.5%', '$0.0040'],
  ['emoji', 'acme/🦜-parrot-🚀', pc.green('100.0%'), '$0.0001'],
  ['flags', 'acme/👩‍🔬 scientist', '12.0%', pc.red('$1.2000')],
];

describe('renderTable: wide characters, emoji and colour', () => {
  it.each([undefined, 120, 60, 44, 36, 24])('keeps every border aligned at width %s', (width) => {
    const table = renderTable(COLUMNS, WIDE_ROWS, { width });
    for (const box of boxes(table)) {
      const at = borderColumns(box.join('\n'));
      const widths = box.map((line) => stringWidth(line));
      expect(new Set(widths).size, box.join('\n')).toBe(1);
      // Every row's inner borders sit where the top line's joints are.
      for (const line of at.slice(1)) expect(line).toEqual(at[0]);
      if (width !== undefined) expect(widths[0]).toBeLessThanOrEqual(width);
    }
  });

  it('draws a table that fits exactly as before: one line per row, no wrapping', () => {
    const lines = stripAnsi(renderTable(COLUMNS, WIDE_ROWS)).split('\n');
    expect(lines).toHaveLength(4 + WIDE_ROWS.length);
    expect(lines[3]).toBe('│ animals │ moonshot/kimi-k2 月之暗面 │  98.0% │ $0.0100 │');
  });

  it('closes a colour at the end of each wrapped line, so no border is painted', () => {
    const table = renderTable([{ header: 'error' }], [[pc.red('connection reset by peer after retries')]], {
      width: 20,
    });
    const colours = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
    for (const line of table.split('\n')) {
      const inner = line.slice(1, -1);
      expect(
        line.startsWith('│') || line.startsWith('┌') || line.startsWith('├') || line.startsWith('└'),
      ).toBe(true);
      // Between the borders, every colour opened is reset before the closing border.
      const codes = inner.match(colours) ?? [];
      if (codes.length) expect(codes.at(-1)).toBe(`${String.fromCharCode(27)}[0m`);
    }
    expect(stripAnsi(table)).toContain('│ connection reset │');
  });
});

describe('renderTable: fitting a width', () => {
  const columns: Column[] = [
    { header: 'model', key: true },
    { header: 'field_accuracy', align: 'right' },
    { header: 'exact_match', align: 'right' },
    { header: 'cost', align: 'right' },
  ];
  const rows = [['fake/parrot', '100.0%', '50.0%', '$0.000044']];

  it.each<[string, number, string[]]>([
    [
      'wide enough: as it is',
      60,
      [
        '┌─────────────┬────────────────┬─────────────┬───────────┐',
        '│ model       │ field_accuracy │ exact_match │ cost      │',
        '├─────────────┼────────────────┼─────────────┼───────────┤',
        '│ fake/parrot │         100.0% │       50.0% │ $0.000044 │',
        '└─────────────┴────────────────┴─────────────┴───────────┘',
      ],
    ],
    [
      'a little narrow: only the headers wrap, at their joints',
      50,
      [
        '┌─────────────┬──────────┬───────────┬───────────┐',
        '│ model       │ field_   │ exact_    │ cost      │',
        '│             │ accuracy │ match     │           │',
        '├─────────────┼──────────┼───────────┼───────────┤',
        '│ fake/parrot │   100.0% │     50.0% │ $0.000044 │',
        '└─────────────┴──────────┴───────────┴───────────┘',
      ],
    ],
    [
      'narrower: the widest text wraps too, at a joint',
      44,
      [
        '┌──────────┬──────────┬────────┬───────────┐',
        '│ model    │ field_   │ exact_ │ cost      │',
        '│          │ accuracy │ match  │           │',
        '├──────────┼──────────┼────────┼───────────┤',
        '│ fake/    │   100.0% │  50.0% │ $0.000044 │',
        '│ parrot   │          │        │           │',
        '└──────────┴──────────┴────────┴───────────┘',
      ],
    ],
    [
      'too narrow for every column: split into parts that repeat the key column',
      34,
      [
        '┌─────────────┬────────────────┐',
        '│ model       │ field_accuracy │',
        '├─────────────┼────────────────┤',
        '│ fake/parrot │         100.0% │',
        '└─────────────┴────────────────┘',
        '┌─────────────┬─────────────┐',
        '│ model       │ exact_match │',
        '├─────────────┼─────────────┤',
        '│ fake/parrot │       50.0% │',
        '└─────────────┴─────────────┘',
        '┌─────────────┬───────────┐',
        '│ model       │ cost      │',
        '├─────────────┼───────────┤',
        '│ fake/parrot │ $0.000044 │',
        '└─────────────┴───────────┘',
      ],
    ],
  ])('%s (width %i)', (_, width, expected) => {
    expect(renderTable(columns, rows, { width }).split('\n')).toEqual(expected);
  });
});

describe('table layout', () => {
  const need = (natural: number, cells: number, words: number, key = false): ColumnNeeds => ({
    natural,
    cells,
    words,
    graphemes: 1,
    key,
  });

  it.each<[string, ColumnNeeds[], number, number[] | undefined]>([
    ['fits: unchanged', [need(5, 5, 5), need(6, 6, 6)], 18, [5, 6]],
    ['headers first, only as far as needed', [need(14, 6, 8), need(11, 5, 6), need(9, 9, 9)], 38, [8, 11, 9]],
    ['then the widest', [need(20, 20, 5), need(9, 9, 9)], 25, [9, 9]],
    ['never under the floor', [need(20, 20, 12), need(9, 9, 9)], 27, undefined],
  ])('narrow: %s', (_, needs, limit, widths) => {
    expect(narrow(needs, limit, 'words')).toEqual(widths);
  });

  it.each<[string, ColumnNeeds[], number, number[][]]>([
    [
      'keys repeat in every part',
      [need(5, 5, 5, true), need(10, 10, 10), need(10, 10, 10)],
      25,
      [
        [0, 1],
        [0, 2],
      ],
    ],
    [
      'the first column when none is marked',
      [need(4, 4, 4), need(10, 10, 10), need(10, 10, 10)],
      24,
      [
        [0, 1],
        [0, 2],
      ],
    ],
    [
      'as many as fit per part',
      [need(3, 3, 3, true), need(3, 3, 3), need(3, 3, 3), need(30, 30, 30)],
      22,
      [
        [0, 1, 2],
        [0, 3],
      ],
    ],
  ])('splitColumns: %s', (_, needs, limit, parts) => {
    expect(splitColumns(needs, limit)).toEqual(parts);
  });
});

describe('text width', () => {
  it.each<[string, string, number, string[]]>([
    ['fits', 'fake/echo', 9, ['fake/echo']],
    ['at a slash', 'openrouter/anthropic/claude', 12, ['openrouter/', 'anthropic/', 'claude']],
    ['at spaces, dropping them', 'one two three', 7, ['one two', 'three']],
    ['mid-word when no joint fits', 'abcdefghij', 4, ['abcd', 'efgh', 'ij']],
    ['wide characters by their width', '月之暗面模型', 5, ['月之', '暗面', '模型']],
    ['an emoji whole', 'ab🦜cd', 3, ['ab', '🦜c', 'd']],
  ])('wrapText: %s', (_, text, width, lines) => {
    expect(wrapText(text, width)).toEqual(lines);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
  });

  it.each<[string, string, number]>([
    ['field_accuracy', 'field_accuracy', 8],
    ['fake/parrot', 'fake/parrot', 6],
    ['$0.000044', '$0.000044', 9],
    ['two words', 'two words', 5],
  ])('longestWord: %s', (_, text, width) => {
    expect(longestWord(text)).toBe(width);
  });

  it('truncates with an ellipsis and closes its colour', () => {
    expect(truncateText('abcdef', 4)).toBe('abc…');
    expect(truncateText('ab', 4)).toBe('ab');
    expect(stripAnsi(truncateText(pc.red('月之暗面'), 5))).toBe('月之…');
  });

  it('wraps prose under a hanging indent', () => {
    expect(wrapProse('  errors: cases that failed after retries', 20, 4).split('\n')).toEqual([
      '  errors: cases that',
      '    failed after',
      '    retries',
    ]);
    expect(wrapProse('unchanged without a width', undefined)).toBe('unchanged without a width');
  });

  it('keeps a box inside the width, wrapping long lines', () => {
    const box = renderBox('Info', ['File: /a/very/long/path/to/evals/eval_helper.ts'], { width: 30 });
    for (const line of box.split('\n')) expect(stringWidth(line)).toBe(30);
  });
});

describe('renderLeaderboard within a width', () => {
  it.each([40, 60, 80, 100, 140])('no line is wider than %i columns', (width) => {
    const text = stripAnsi(
      renderLeaderboard(snapshotFixture({ score: 5, exact: 2, errors: -3, cost: -2, latency: -1 }), {
        totals: 'both',
        scores: true,
        snapshotFile: 'evals/results/20260101-000000-abcd.json',
        width,
      }),
    );
    for (const line of text.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
  });
});

describe('LiveLines on a terminal', () => {
  it('cuts each redrawn line to the width, so the redraw climbs exactly the lines it drew', () => {
    const written: string[] = [];
    const live = new LiveLines({ write: (text: string) => written.push(text) }, true, 20);
    live.draw([pc.green('█'.repeat(24)) + ' 3/4 openrouter/anthropic/claude', 'short']);
    const lines = stripAnsi(written.join(''))
      .replaceAll(`${String.fromCharCode(27)}[2K`, '')
      .split('\n');
    expect(lines.slice(0, 2).map((l) => stringWidth(l))).toEqual([20, 5]);
    expect(lines[0]!.endsWith('…')).toBe(true);
  });
});
