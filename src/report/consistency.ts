import { consistencyOf, type Consistency } from '../core/consistency.ts';
import { withoutRepeat } from '../core/matrix.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { contenderName } from './columns.ts';
import { formatPercent } from './format.ts';
import { esc } from './html-escape.ts';
import { wrapProse } from './text-width.ts';

/** How many flaky cases a line names before it counts the rest. */
const NAMED = 10;

/** A snapshot's consistency over repeats: as saved, or computed now for a snapshot saved before it was. */
function consistency(snapshot: Snapshot): Consistency[] {
  return snapshot.consistency ?? consistencyOf(snapshot);
}

/** One contender's consistency in a sentence: pass^k, and the flaky cases by key. */
function line(snapshot: Snapshot, c: Consistency): string {
  const contender = snapshot.contenders.find((x) => withoutRepeat(x).key === c.contender);
  const name = contender ? contenderName(withoutRepeat(contender)) : c.contender;
  const right = Math.round(c.passK * c.cases);
  const flaky = c.flaky.length
    ? `${c.flaky.length} flaky: ${c.flaky.slice(0, NAMED).join(', ')}` +
      (c.flaky.length > NAMED ? `, … and ${c.flaky.length - NAMED} more` : '')
    : 'no flaky case';
  // In points, as scores are shown; absent from snapshots saved before the spread was.
  const noise = c.spread === undefined ? '' : `; own noise ±${(100 * c.spread).toFixed(1)} points`;
  return `${name}: pass^${c.k} ${formatPercent(c.passK)} (${right} of ${c.cases} cases right every time); ${flaky}${noise}`;
}

const title = (list: readonly Consistency[]) =>
  `Consistency over ${Math.max(...list.map((c) => c.k))} repeats: pass^k is the share of cases right (full marks) ` +
  'in every repeat; a flaky case is right in some repeats and wrong in others; own noise is the standard ' +
  "deviation of a case's repeats, averaged over the cases";

/** The TUI's consistency block with `--repeat`: each contender's pass^k and flaky cases; `''` without repeats. */
export function renderConsistency(snapshot: Snapshot, width?: number): string {
  const list = consistency(snapshot);
  if (!list.length) return '';
  return [
    wrapProse(title(list), width),
    ...list.map((c) => wrapProse(`  ${line(snapshot, c)}`, width, 4)),
  ].join('\n');
}

/** The HTML report's consistency section body with `--repeat`; `''` without repeats. */
export function consistencyHtml(snapshot: Snapshot): string {
  const list = consistency(snapshot);
  if (!list.length) return '';
  return `<p class="note">${esc(title(list))}.</p><ul>${list.map((c) => `<li>${esc(line(snapshot, c))}</li>`).join('')}</ul>`;
}
