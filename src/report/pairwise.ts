import { pairwiseReport, type PairReading, type PairwiseReport, type Position } from '../judge/pairwise.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { contenderName } from './columns.ts';
import { formatPercent } from './format.ts';
import { esc } from './html-escape.ts';
import { formatP } from './significance.ts';
import { wrapProse } from './text-width.ts';

const position = (v: unknown): Position | null => (v === 'first' || v === 'second' || v === 'tie' ? v : null);

/** The `--pairwise` report of a run, from the readings its B results carry; `undefined` in a run without one. */
export function pairwiseOf(
  snapshot: Pick<Snapshot, 'results' | 'experiments' | 'contenders'>,
): PairwiseReport | undefined {
  const contenders = new Map(snapshot.contenders.map((c) => [c.key, c]));
  const contenderOf = new Map(snapshot.experiments.map((e) => [e.id, contenders.get(e.contender)]));
  const readings: PairReading[] = [];
  let names: [string, string] | undefined;
  for (const r of snapshot.results) {
    const p = r.diagnostics.pairwise as
      { against?: unknown; readings?: Record<string, unknown[]> } | undefined;
    if (!p || typeof p.against !== 'string') continue;
    const a = contenders.get(p.against);
    const b = contenderOf.get(r.experimentId);
    names ??= [a ? contenderName(a) : p.against, b ? contenderName(b) : r.experimentId];
    for (const [judge, pair] of Object.entries(p.readings ?? {}))
      readings.push({ caseKey: r.caseKey, judge, aFirst: position(pair[0]), bFirst: position(pair[1]) });
  }
  return names ? pairwiseReport(names[0], names[1], readings) : undefined;
}

const TITLE =
  'Pairwise, each case judged in both orders: a verdict counts only when both orders agree; otherwise the pair is ' +
  "position-inconsistent. p is the exact sign test on wins vs losses (ties dropped); a judge's position bias is the " +
  'share of its inconsistent pairs where it picked the same position both times';

/** The pairwise figures of A against B in lines: overall, then each judge's with its position-bias rate. */
export function pairwiseLines(rep: PairwiseReport): string[] {
  const tally = (t: PairwiseReport['overall'] | PairwiseReport['judges'][number]) =>
    `${t.wins} win${t.wins === 1 ? '' : 's'}, ${t.ties} tie${t.ties === 1 ? '' : 's'}, ${t.losses} loss${t.losses === 1 ? '' : 'es'} ` +
    `(${formatP(t.p)}); ${t.inconsistent} position-inconsistent` +
    (t.failed ? `, ${t.failed} judge failure${t.failed === 1 ? '' : 's'}` : '');
  return [
    `${rep.a} vs ${rep.b} over ${rep.overall.cases} cases: ${tally(rep.overall)}`,
    ...rep.judges.map(
      (j) =>
        `${j.judge}: ${tally(j)}; position bias ${j.positionBias === null ? '–' : formatPercent(j.positionBias)}`,
    ),
  ];
}

/** The TUI's pairwise block; `''` in a run without `--pairwise`. */
export function renderPairwise(snapshot: Snapshot, width?: number): string {
  const rep = pairwiseOf(snapshot);
  if (!rep) return '';
  const [first, ...judges] = pairwiseLines(rep);
  return [
    wrapProse(TITLE, width),
    wrapProse(`  ${first!}`, width, 4),
    ...judges.map((l) => wrapProse(`    ${l}`, width, 6)),
  ].join('\n');
}

/** The HTML report's pairwise section body; `''` without `--pairwise`. */
export function pairwiseHtml(snapshot: Snapshot): string {
  const rep = pairwiseOf(snapshot);
  if (!rep) return '';
  return `<p class="note">${esc(TITLE)}.</p><ul>${pairwiseLines(rep)
    .map((l) => `<li>${esc(l)}</li>`)
    .join('')}</ul>`;
}
