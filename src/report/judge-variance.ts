import type { Snapshot } from '../core/snapshot.ts';
import { judgeVariance, type JudgedReply, type JudgeVariance } from '../judge/variance.ts';
import { contenderName } from './columns.ts';
import { formatPercent } from './format.ts';
import { esc } from './html-escape.ts';
import { wrapProse } from './text-width.ts';

/** How many unstable replies a line names before it counts the rest. */
const NAMED = 10;

type JudgeDiagnostics = { unstable?: unknown; reasoning?: Record<string, unknown> };

/** The judges of a run and what each judged reply says of them, read from the results' judge diagnostics. */
function judgedReplies(snapshot: Snapshot): { models: string[]; replies: JudgedReply[] } {
  const contenders = new Map(snapshot.contenders.map((c) => [c.key, c]));
  const nameOf = new Map(
    snapshot.experiments.map((e) => {
      const c = contenders.get(e.contender);
      return [e.id, c ? contenderName(c) : e.contender];
    }),
  );
  const models: string[] = [];
  const replies: JudgedReply[] = [];
  for (const r of snapshot.results) {
    const d = r.diagnostics.judge as JudgeDiagnostics | undefined;
    if (!d || typeof d.reasoning !== 'object' || d.reasoning === null) continue;
    const mine = Object.keys(d.reasoning);
    for (const m of mine) if (!models.includes(m)) models.push(m);
    const panel = mine.length > 1;
    const value = (metric: string) => (typeof r.metrics[metric] === 'number' ? r.metrics[metric] : null);
    replies.push({
      reply: `${r.caseKey} by ${nameOf.get(r.experimentId) ?? r.experimentId}`,
      members: Object.fromEntries(mine.map((m) => [m, value(panel ? `judge.${m}` : 'judge')])),
      panel: value('judge'),
      samples: Object.fromEntries(
        mine.map((m) => {
          const read = d.reasoning![m];
          return [m, Array.isArray(read) ? read.length : 0];
        }),
      ),
      unstable: Array.isArray(d.unstable) ? d.unstable.filter((u): u is string => typeof u === 'string') : [],
    });
  }
  return { models, replies };
}

/** Each judge's variance over its samples and its part in the panel; `[]` with one sample a reply and one judge. */
export function judgeVarianceOf(snapshot: Snapshot): JudgeVariance[] {
  const { models, replies } = judgedReplies(snapshot);
  const list = judgeVariance(models, replies);
  return models.length > 1 || list.some((j) => j.sampled > 0) ? list : [];
}

const TITLE =
  "The judge's variance: self-agreement is the share of replies whose k verdicts all agree (an unstable reply's " +
  'differ); with a panel, each judge’s mean verdict and how often it agreed with the panel';

/** One judge's variance in a sentence. */
export function varianceLine(j: JudgeVariance, panel: boolean): string {
  const parts = [];
  if (j.selfAgreement !== null) {
    const named = j.unstable.slice(0, NAMED).join(', ');
    const more = j.unstable.length > NAMED ? `, … and ${j.unstable.length - NAMED} more` : '';
    parts.push(
      `self-agreement ${formatPercent(j.selfAgreement)} of ${j.sampled} replies` +
        (j.unstable.length ? `; unstable: ${named}${more}` : '; no unstable reply'),
    );
  }
  if (panel) {
    parts.push(`mean ${j.mean === null ? '–' : formatPercent(j.mean)}`);
    parts.push(
      `agreed with the panel ${j.panelAgreement === null ? '–' : formatPercent(j.panelAgreement)} of ${j.withPanel}`,
    );
  }
  return `${j.judge}: ${parts.join('; ')}`;
}

/** The TUI's block on the judge's variance and panel; `''` with one judge asked once a reply. */
export function renderJudgeVariance(snapshot: Snapshot, width?: number): string {
  const list = judgeVarianceOf(snapshot);
  if (!list.length) return '';
  return [
    wrapProse(TITLE, width),
    ...list.map((j) => wrapProse(`  ${varianceLine(j, list.length > 1)}`, width, 4)),
  ].join('\n');
}

/** The HTML report's section body on the judge's variance and panel; `''` with one judge asked once a reply. */
export function judgeVarianceHtml(snapshot: Snapshot): string {
  const list = judgeVarianceOf(snapshot);
  if (!list.length) return '';
  return `<p class="note">${esc(TITLE)}.</p><ul>${list.map((j) => `<li>${esc(varianceLine(j, list.length > 1))}</li>`).join('')}</ul>`;
}
