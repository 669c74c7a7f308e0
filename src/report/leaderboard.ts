import pc from 'picocolors';
import { summarize, type Summary } from '../core/aggregate.ts';
import { groupBy } from '../core/group.ts';
import type { Contender } from '../core/matrix.ts';
import { formatCost, formatCount, formatPercent, formatSeconds, formatTemperature } from './format.ts';
import { contenderColour } from './palette.ts';
import type { Snapshot } from './snapshot.ts';
import { renderTable, type Column } from './table.ts';

/** One experiment's row: its contender, dataset and summary. */
export interface Standing {
  experimentId: string;
  dataset: string;
  contender: Contender;
  contenderIndex: number;
  summary: Summary;
}

/** Summarises each experiment of a snapshot, ranked within each dataset by the primary metric (then cost). */
export function standings(snapshot: Snapshot): Standing[] {
  const metricNames = snapshot.metrics.map((m) => m.name);
  const primary = snapshot.metrics.find((m) => m.primary)?.name ?? metricNames[0];
  const contenders = new Map(snapshot.contenders.map((c, i) => [c.key, { c, i }]));
  const byExperiment = groupBy(snapshot.results, (r) => r.experimentId);
  const rows = snapshot.experiments.map((e) => {
    const { c, i } = contenders.get(e.contender)!;
    return {
      experimentId: e.id,
      dataset: e.dataset,
      contender: c,
      contenderIndex: i,
      summary: summarize(byExperiment.get(e.id) ?? [], metricNames),
    };
  });
  const rank = (s: Standing) => (primary ? s.summary.metrics[primary] : s.summary.score) ?? -1;
  const datasetOrder = [...new Set(rows.map((r) => r.dataset))];
  return rows.sort(
    (a, b) =>
      datasetOrder.indexOf(a.dataset) - datasetOrder.indexOf(b.dataset) ||
      rank(b) - rank(a) ||
      (a.summary.usage.costUsd ?? Infinity) - (b.summary.usage.costUsd ?? Infinity) ||
      a.contenderIndex - b.contenderIndex,
  );
}

/** The provider in one colour, the model id in its progress bar's. */
export function contenderLabel(c: Contender, index: number): string {
  const own = `${c.provider}/`;
  if (c.id.startsWith(own)) return pc.blue(own) + contenderColour(index)(c.id.slice(own.length));
  return `${pc.blue(c.provider)} ${contenderColour(index)(c.id)}`;
}

/** The TUI leaderboard (R1): a column per scorer metric, then errors, time, tokens and cost; and the glossary. */
export function renderLeaderboard(snapshot: Snapshot): string {
  const metrics = snapshot.metrics;
  const columns: Column[] = [
    { header: 'dataset' },
    { header: 'model' },
    { header: 'effort' },
    { header: 'temp' },
    ...metrics.map((m) => ({ header: m.name, align: 'right' as const })),
    { header: 'errors', align: 'right' },
    { header: 'time', align: 'right' },
    { header: 'tok_in', align: 'right' },
    { header: 'tok_out', align: 'right' },
    { header: 'cost', align: 'right' },
  ];
  const rows = standings(snapshot).map((s) => [
    s.dataset,
    contenderLabel(s.contender, s.contenderIndex),
    s.contender.effort,
    formatTemperature(s.contender.temperature),
    ...metrics.map((m) => formatPercent(s.summary.metrics[m.name])),
    s.summary.errors ? pc.red(String(s.summary.errors)) : '0',
    formatSeconds(s.summary.time),
    formatCount(s.summary.usage.inputTokens),
    formatCount(s.summary.usage.outputTokens),
    formatCost(s.summary.usage.costUsd),
  ]);
  const glossary = metrics.map(
    (m) => `  ${pc.bold(m.name)}${m.primary ? ' (primary)' : ''}: ${m.description}`,
  );
  return [renderTable(columns, rows), 'Glossary:', ...glossary].join('\n');
}
