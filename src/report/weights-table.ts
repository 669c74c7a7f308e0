import pc from 'picocolors';
import type { Metric } from '../api/types.ts';
import { weightShares } from '../core/weights.ts';
import { formatPercent } from './format.ts';
import { renderTable, type FitOptions } from './table.ts';

const BAR = 30;

/**
 * `weights`: each weighted column's direction (↓ bold blue where low is good, ↑ bold yellow where high is good)
 * and real share of the wscore; scorer metrics the weights leave out follow in red, with no values.
 */
export function renderWeights(
  weights: Record<string, number> | undefined,
  metrics: readonly Metric[],
  file: string,
  fit: FitOptions = {},
): string {
  const unweighted = metrics.filter((m) => !weights || !(m.name in weights));
  if (!weights) {
    const primary = (metrics.find((m) => m.primary) ?? metrics[0])?.name ?? 'score';
    return [
      `No weighted_score in ${file}: the leaderboard ranks by the primary metric, ${pc.bold(primary)}.`,
      ...unweighted.map((m) => pc.red(`  ${m.name}: not weighted`)),
    ].join('\n');
  }
  const rows = weightShares(weights).map((w) => {
    const paint =
      w.direction === 'low' ? (t: string) => pc.bold(pc.blue(t)) : (t: string) => pc.bold(pc.yellow(t));
    const arrow = w.direction === 'low' ? '↓ low is good' : '↑ high is good';
    return [
      paint(w.key),
      String(w.weight),
      paint(arrow),
      formatPercent(w.share),
      paint('█'.repeat(Math.round(w.share * BAR))),
    ];
  });
  const left = unweighted.map((m) => [pc.red(m.name), pc.red('-'), pc.red('not weighted'), pc.red('-'), '']);
  const table = renderTable(
    [
      { header: 'column', key: true },
      { header: 'weight', align: 'right' },
      { header: 'direction' },
      { header: 'share', align: 'right' },
      { header: '' },
    ],
    [...rows, ...left],
    fit,
  );
  return [
    table,
    'wscore = Σ(|weight| × goodness) / Σ|weight|: goodness is the value, or 1 − value under a negative weight;',
    'cost, time, latency and p95 sit on a log scale within each table; errors take 20, 25, 30… points off the total.',
  ].join('\n');
}
