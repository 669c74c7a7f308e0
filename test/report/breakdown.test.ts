import { describe, expect, it } from 'vitest';
import { renderBreakdown } from '../../src/report/breakdown.ts';
import { stripAnsi } from '../../src/report/text-width.ts';
import { snapshotFixture } from './fixture.ts';

/** The header cells of a rendered table: the first line with `│` separators. */
const headerCells = (table: string) =>
  stripAnsi(table)
    .split('\n')
    .find((l) => l.startsWith('│'))!
    .split('│')
    .map((c) => c.trim())
    .filter(Boolean);

describe("run's per-case breakdown", () => {
  it('names score once when the scorer has a metric named score', () => {
    const cells = headerCells(renderBreakdown(snapshotFixture()));
    expect(cells.filter((c) => c === 'score')).toHaveLength(1);
    expect(cells).toEqual(['case', 'contender', 'score', 'exact', 'latency', 'cost', 'error']);
  });

  it('keeps an error with newlines on its row: one line per result', () => {
    const snapshot = snapshotFixture();
    const failed = snapshot.results.find((r) => r.status === 'error')!;
    failed.error = 'HTTP 500:\n<html>\n  <body>upstream died</body>\n</html>';
    const rows = stripAnsi(renderBreakdown(snapshot))
      .split('\n')
      .filter((l) => /^│ (north|south)\//.test(l));
    expect(rows).toHaveLength(snapshot.results.length);
    expect(rows.find((l) => l.includes('HTTP 500'))).toContain(
      'HTTP 500: <html> <body>upstream died</body> </html>',
    );
  });
});
