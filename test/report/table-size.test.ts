import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/report/table.ts';

describe('renderTable at any size', () => {
  // `cases` of a million-case suite ran out of stack: the column widths were Math.max(...every cell).
  it('draws a table of 500,000 rows', () => {
    const rows = Array.from({ length: 500_000 }, (_, i) => [`d${i % 4}`, `v/${String(i).padStart(7, '0')}`]);
    const text = renderTable(
      ['dataset', 'case'].map((header) => ({ header })),
      rows,
    );
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(500_000 + 4);
    expect(lines.at(-2)).toBe('│ d3      │ v/0499999 │');
  });
});
