import pc from 'picocolors';
import type { Contender } from '../core/matrix.ts';
import type { RunProgress } from '../core/progress.ts';
import { renderBatchWait } from './batch-wait.ts';
import { contenderSettings } from './columns.ts';
import { contenderColour, contenderLabel } from './palette.ts';

const WIDTH = 24;

/** One line per experiment: a bar in its contender's colour, done/total, the contender named in full, dataset, errors. */
export function renderProgress(
  progress: RunProgress,
  experiments: readonly { id: string; contender: string; dataset: string }[],
  contenders: readonly Contender[],
): string[] {
  const index = new Map(contenders.map((c, i) => [c.key, i]));
  const byId = new Map(progress.experiments.map((e) => [e.id, e]));
  return experiments.map((e) => {
    const p = byId.get(e.id);
    const i = index.get(e.contender) ?? 0;
    const c = contenders[i]!;
    const done = p?.done ?? 0;
    const total = p?.total ?? 0;
    const filled = total ? Math.round((done / total) * WIDTH) : 0;
    const bar = contenderColour(i)('█'.repeat(filled)) + pc.dim('░'.repeat(WIDTH - filled));
    const errors = p?.errors ? pc.red(` ${p.errors} ${p.errors === 1 ? 'error' : 'errors'}`) : '';
    const batch = p?.batch ? pc.dim(` ${renderBatchWait(p.batch, Date.now())}`) : '';
    return `${bar} ${String(done).padStart(String(total).length)}/${total} ${contenderLabel(c, i)}${contenderSettings(c)} ${pc.dim(e.dataset)}${errors}${batch}`;
  });
}
