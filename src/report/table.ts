/** A column of a terminal table: its header and which side its cells hug. */
export interface Column {
  header: string;
  align?: 'left' | 'right';
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** A string without its colour codes. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** The width a string takes in a terminal, ignoring colour codes. */
export function visibleWidth(text: string): number {
  return [...stripAnsi(text)].length;
}

function pad(text: string, width: number, align: Column['align']): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** Draws a box table with one header row; cells may carry colour codes. */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((c, i) =>
    Math.max(visibleWidth(c.header), ...rows.map((r) => visibleWidth(r[i] ?? ''))),
  );
  const line = (left: string, mid: string, right: string) =>
    left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right;
  const row = (cells: readonly string[], header = false) =>
    '│' +
    columns.map((c, i) => ` ${pad(cells[i] ?? '', widths[i]!, header ? 'left' : c.align)} `).join('│') +
    '│';
  return [
    line('┌', '┬', '┐'),
    row(
      columns.map((c) => c.header),
      true,
    ),
    line('├', '┼', '┤'),
    ...rows.map((r) => row(r)),
    line('└', '┴', '┘'),
  ].join('\n');
}

/** Draws a titled box around lines of text, at least `width` wide. */
export function renderBox(title: string, lines: readonly string[], width = 78): string {
  const inner = Math.max(width, visibleWidth(title) + 4, ...lines.map((l) => visibleWidth(l) + 2));
  const top = `┌ ${title} ${'─'.repeat(inner - visibleWidth(title) - 2)}┐`;
  const body = lines.map((l) => `│ ${pad(l, inner - 2, 'left')} │`);
  return [top, ...body, `└${'─'.repeat(inner)}┘`].join('\n');
}
