import { batchLabel } from '../core/batch.ts';
import pc from 'picocolors';
import type { Estimate } from '../core/estimate.ts';
import { sumEstimates } from '../core/estimate.ts';
import { withoutRepeat } from '../core/matrix.ts';
import type { Plan } from '../core/plan.ts';
import { counted, formatCost, formatCount, formatTemperature } from './format.ts';
import { renderTable, type FitOptions } from './table.ts';

/** The dry run's view (`-n`): each experiment with its settings and estimate, then the totals and refusals. */
export function renderMatrix(
  plan: Plan,
  estimates: ReadonlyMap<string, Estimate>,
  fit: FitOptions = {},
): string {
  const contenders = new Map(plan.contenders.map((c) => [c.key, c]));
  // With --repeat, a repeat is a pass of a contender, not another one: its number gets a column, the count its factor.
  const repeats = Math.max(1, ...plan.contenders.map((c) => c.repeat ?? 1));
  const models = new Set(plan.contenders.map((c) => (c.repeat === undefined ? c.key : withoutRepeat(c).key)))
    .size;
  const rows = plan.experiments.map((e, i) => {
    const c = contenders.get(e.contender)!;
    const est = estimates.get(e.id);
    return [
      String(i + 1),
      e.dataset,
      pc.cyan(c.provider),
      pc.magenta(c.id),
      c.effort,
      formatTemperature(c.temperature),
      c.maxTokens === null ? 'default' : String(c.maxTokens),
      ...(repeats > 1 ? [String(c.repeat ?? 1)] : []),
      String(e.caseKeys.length),
      formatCount(est?.inputTokens),
      formatCount(est?.outputTokens),
      formatCost(est?.costUsd),
    ];
  });
  const table = renderTable(
    [
      { header: '#', align: 'right', key: true },
      { header: 'dataset', key: true },
      { header: 'provider' },
      { header: 'model', key: true },
      { header: 'effort' },
      { header: 'temp' },
      { header: 'max_tokens' },
      ...(repeats > 1 ? [{ header: 'repeat', align: 'right' as const }] : []),
      { header: 'cases', align: 'right' },
      { header: '≈tok_in', align: 'right' },
      { header: '≈tok_out', align: 'right' },
      { header: '≈cost', align: 'right' },
    ],
    rows,
    fit,
  );
  const total = sumEstimates([...estimates.values()]);
  const datasets = new Set(plan.experiments.map((e) => e.dataset)).size;
  const lines = [
    table,
    `${counted(plan.experiments.length, 'experiment')} (${counted(models, 'contender')} × ` +
      (repeats > 1 ? `${counted(repeats, 'repeat')} × ` : '') +
      `${counted(datasets, 'dataset')}), ${counted(plan.cases.length, 'case')}, ${counted(total.calls, 'call')}`,
    `estimated: ${formatCount(total.inputTokens)} tokens in, ${formatCount(total.outputTokens)} tokens out, ` +
      `${formatCost(total.costUsd)}${total.costUsd === null ? ' (some prices unknown)' : ''}` +
      (plan.settings.batch ? ` (${batchLabel(plan.settings.batch.discounts)})` : ''),
  ];
  return lines.join('\n');
}
