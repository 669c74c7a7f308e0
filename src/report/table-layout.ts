/** What a column needs: its natural width, its header's and cells' widths, and how narrow it may get. */
export interface ColumnNeeds {
  /** The widest of the header and the cells. */
  natural: number;
  /** The widest cell (0 with no rows): narrowing the column to here wraps only the header. */
  cells: number;
  /** The longest word of the header and the cells: narrower cuts words. */
  words: number;
  /** The widest grapheme: narrower cannot show the text. */
  graphemes: number;
  /** Repeated in every part when the table is split (dataset, model…). */
  key: boolean;
}

/** The columns one box takes: a border on each side of every column and a space of padding within. */
export const boxWidth = (widths: readonly number[]) =>
  widths.reduce((sum, w) => sum + w, 0) + 3 * widths.length + 1;

/**
 * Narrows columns until the box fits `limit`, or undefined when the floor (`words` or `graphemes`) is too wide: first
 * the columns whose header alone is wider than their cells (only the header wraps), then the widest column, one
 * column at a time, so short numbers stay whole while long names wrap.
 */
export function narrow(
  needs: readonly ColumnNeeds[],
  limit: number,
  floor: 'words' | 'graphemes',
): number[] | undefined {
  const floors = needs.map((n) => n[floor]);
  if (boxWidth(floors) > limit) return undefined;
  const widths = needs.map((n) => n.natural);
  const over = () => boxWidth(widths) - limit;
  const headerRoom = (i: number) => widths[i]! - Math.max(needs[i]!.cells, floors[i]!);
  while (over() > 0) {
    const i = widths.map((_, j) => j).reduce((a, b) => (headerRoom(b) > headerRoom(a) ? b : a));
    if (headerRoom(i) <= 0) break;
    widths[i]! -= Math.min(headerRoom(i), over());
  }
  while (over() > 0) {
    const i = widths
      .map((_, j) => j)
      .filter((j) => widths[j]! > floors[j]!)
      .reduce((a, b) => (widths[b]! > widths[a]! ? b : a));
    widths[i]! -= 1;
  }
  return widths;
}

/**
 * Splits a table too wide for `limit` into parts that each repeat the key columns (the first column when none is
 * marked) and take as many of the others, in order, as fit at their natural width; a column too wide for any part
 * gets one of its own, to be narrowed there.
 */
export function splitColumns(needs: readonly ColumnNeeds[], limit: number): number[][] {
  const marked = needs.flatMap((n, i) => (n.key ? [i] : []));
  const keys = marked.length > 0 ? marked : [0];
  const others = needs.map((_, i) => i).filter((i) => !keys.includes(i));
  const parts: number[][] = [];
  let part: number[] = [];
  const natural = (columns: number[]) => boxWidth(columns.map((i) => needs[i]!.natural));
  for (const column of others) {
    if (part.length > 0 && natural([...keys, ...part, column]) > limit) {
      parts.push(part);
      part = [];
    }
    part.push(column);
  }
  if (part.length > 0 || parts.length === 0) parts.push(part);
  return parts.map((p) => [...keys, ...p].sort((a, b) => a - b));
}
