import { boxWidth, narrow, splitColumns, type ColumnNeeds } from './table-layout.ts';
import { longestWord, truncateText, visibleWidth, widestGrapheme, wrapText } from './text-width.ts';

export { stripAnsi, visibleWidth } from './text-width.ts';

/** A column of a terminal table: its header, which side its cells hug, and whether a split table repeats it. */
export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Names the row (dataset, model…): repeated in every part when a table too wide is split. */
  key?: boolean;
}

/** How wide a table or box may get, in terminal columns; none means no limit. */
export interface FitOptions {
  width?: number;
}

function pad(text: string, width: number, align: Column['align']): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

function needsOf(column: Column, cells: readonly string[]): ColumnNeeds {
  const all = [column.header, ...cells];
  const cellWidths = cells.map(visibleWidth);
  return {
    natural: Math.max(visibleWidth(column.header), maxOf(cellWidths)),
    cells: maxOf(cellWidths),
    words: maxOf(all.map((t) => longestWord(t))),
    graphemes: maxOf(all.map(widestGrapheme)),
    key: Boolean(column.key),
  };
}

/** The largest of `values`, 0 for none: a loop, since Math.max(...values) runs out of stack at a million rows. */
function maxOf(values: readonly number[]): number {
  let most = 0;
  for (const v of values) if (v > most) most = v;
  return most;
}

/** One box: the header row and the rows, each cell wrapped to its column's width. */
function drawBox(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  widths: readonly number[],
): string {
  const line = (left: string, mid: string, right: string) =>
    left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right;
  const row = (cells: readonly string[], header = false) => {
    const wrapped = columns.map((_, i) => wrapText(cells[i] ?? '', widths[i]!));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    return Array.from(
      { length: height },
      (_, j) =>
        '│' +
        columns
          .map((c, i) => ` ${pad(wrapped[i]![j] ?? '', widths[i]!, header ? 'left' : c.align)} `)
          .join('│') +
        '│',
    );
  };
  return [
    line('┌', '┬', '┐'),
    ...row(
      columns.map((c) => c.header),
      true,
    ),
    line('├', '┼', '┤'),
    ...rows.flatMap((r) => row(r)),
    line('└', '┴', '┘'),
  ].join('\n');
}

/**
 * Draws a box table with one header row; cells may carry colour codes and wide characters. Given a width, a table too
 * wide first wraps its headers and long cells at word joints; when even that cannot fit, it is split into parts that
 * each repeat the key columns, so no line is ever wider than the terminal.
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  options: FitOptions = {},
): string {
  const needs = columns.map((c, i) =>
    needsOf(
      c,
      rows.map((r) => r[i] ?? ''),
    ),
  );
  const limit = options.width;
  const natural = needs.map((n) => n.natural);
  if (limit === undefined || boxWidth(natural) <= limit) return drawBox(columns, rows, natural);
  const whole = narrow(needs, limit, 'words');
  if (whole) return drawBox(columns, rows, whole);
  return splitColumns(needs, limit)
    .map((part) => {
      const partNeeds = part.map((i) => needs[i]!);
      // A part that cannot fit even with words cut is drawn at its floor: the narrowest it can be shown.
      const widths =
        narrow(partNeeds, limit, 'words') ??
        narrow(partNeeds, limit, 'graphemes') ??
        partNeeds.map((n) => n.graphemes);
      return drawBox(
        part.map((i) => columns[i]!),
        rows.map((r) => part.map((i) => r[i] ?? '')),
        widths,
      );
    })
    .join('\n');
}

/** Draws a titled box around lines of text, 78 columns inside unless the text is wider or `width` is narrower. */
export function renderBox(title: string, lines: readonly string[], options: FitOptions = {}): string {
  const cap = options.width === undefined ? Infinity : Math.max(8, options.width - 2);
  const inner = Math.min(
    cap,
    Math.max(78, visibleWidth(title) + 4, ...lines.map((l) => visibleWidth(l) + 2)),
  );
  const shownTitle = truncateText(title, inner - 4);
  const top = `┌ ${shownTitle} ${'─'.repeat(inner - visibleWidth(shownTitle) - 2)}┐`;
  const body = lines.flatMap((l) => wrapText(l, inner - 2)).map((l) => `│ ${pad(l, inner - 2, 'left')} │`);
  return [top, ...body, `└${'─'.repeat(inner)}┘`].join('\n');
}

/** Cuts a line to the width (none: as it is), so a redrawn line never wraps and shifts what is drawn below. */
export function fitLine(text: string, width: number | undefined): string {
  return width === undefined ? text : truncateText(text, width);
}
