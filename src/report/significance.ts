import { clustersOfCases, describeRunClustering, type DatasetClustering } from '../core/cluster-se.ts';
import type { Snapshot } from '../core/snapshot.ts';
import type { Standing, VersusBest } from './standings.ts';

/** The mark a row tied with the best carries in the standings: it may be as good as #1. */
export const TIED_MARK = '= #1';

/** The mark a row significantly worse than the best carries in the standings. */
export const WORSE_MARK = '< #1';

/** A difference in points with its sign: `−20.0`, `+3.3`, `0.0`. */
export function formatPoints(diff: number): string {
  const points = (Math.abs(diff) * 100).toFixed(1);
  if (Number(points) === 0) return '0.0';
  return `${diff < 0 ? '−' : '+'}${points}`;
}

/** A row's difference from the best as a cell: `worse −20.0 [−31.2, −8.8] p = 0.003`. */
export function versusText(v: VersusBest): string {
  return `${v.verdict} ${formatPoints(v.diff)} [${formatPoints(v.ci95[0])}, ${formatPoints(v.ci95[1])}] ${formatP(v.pAdjusted)}`;
}

/** A row's difference from the best as a sentence: `20.0 points below the best (95 % interval …; p = 0.003, 60 cases)`. */
export function versusSentence(v: VersusBest): string {
  const points = (Math.abs(v.diff) * 100).toFixed(1);
  const side = v.diff < 0 ? 'below' : 'above';
  return (
    `${points} points ${side} the best in ${v.metric} (95 % interval ${formatPoints(v.ci95[0])} to ` +
    `${formatPoints(v.ci95[1])}; ${formatP(v.pAdjusted)} Holm-adjusted, ${v.n} ${v.n === 1 ? 'case' : 'cases'})`
  );
}

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

/**
 * The clustering the paired tests and their intervals used, as every report names it: `paired tests and intervals:
 * clustered by variant (12 clusters)`, or `…: cases independent`.
 */
export function clusteringNote(clustering: readonly DatasetClustering[] | undefined): string {
  return `paired tests and intervals: ${describeRunClustering(clustering ?? [])}`;
}

/** A snapshot's clustering: as saved, or found now from its cases for a snapshot saved before it was. */
export function clusteringOfSnapshot(snapshot: Pick<Snapshot, 'clustering' | 'cases'>): DatasetClustering[] {
  return snapshot.clustering ?? clustersOfCases(snapshot.cases).clustering;
}
