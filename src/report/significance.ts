import type { Standing } from './standings.ts';

/** The mark a row tied with the best carries in the standings: it may be as good as #1. */
export const TIED_MARK = '= #1';

/** A p-value as people read it: `p = 0.41`, `p = 0.031`, `p < 0.001`. */
export function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p >= 0.1 ? p.toFixed(2) : p.toPrecision(2)}`;
}

/** Why a row is tied with the best, in brackets: `(p = 0.41, 40 cases)`. */
export function tieFigures(row: Pick<Standing, 'tie'>): string {
  return row.tie ? `(${formatP(row.tie.pAdjusted)}, ${row.tie.n} ${row.tie.n === 1 ? 'case' : 'cases'})` : '';
}

/** The tooltip of a tied row's mark: what was tested and what it found. */
export function tieTooltip(row: Pick<Standing, 'tie'>): string {
  if (!row.tie) return '';
  return (
    `Tied with the best: the paired difference in ${row.tie.metric} over ${row.tie.n} shared cases is not significant ` +
    `(${formatP(row.tie.pAdjusted)}, Holm-adjusted; significant below 0.05).`
  );
}
