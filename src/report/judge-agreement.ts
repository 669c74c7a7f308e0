import pc from 'picocolors';
import type { JudgeAgreement } from '../core/judge-agreement.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { KAPPA_WARN } from '../judge/agreement.ts';
import { formatPercent } from './format.ts';
import { esc } from './html-escape.ts';
import { wrapProse } from './text-width.ts';

const fixed = (x: number) => x.toFixed(2);

/** What the section says κ is and how its interval was made. */
function title(list: readonly JudgeAgreement[]): string {
  const weighted = list.some((a) => a.weighted);
  return (
    `Judge agreement with people's labels: Cohen's κ${weighted ? ' (linear-weighted, the scale is ordered)' : ''} ` +
    'is agreement beyond chance, 1 perfect, 0 no better than chance; the 95 % interval is from its asymptotic ' +
    `standard error (Fleiss, Cohen & Everitt); below κ ${KAPPA_WARN} do not trust the judge alone`
  );
}

/** One judge's figures in a sentence: n, raw agreement, κ with its interval, and the warning. */
export function agreementLine(a: JudgeAgreement): string {
  const kappa =
    a.kappa === null
      ? 'κ undefined (one category only)'
      : `κ ${fixed(a.kappa)}${a.ci ? ` [${fixed(a.ci[0])}, ${fixed(a.ci[1])}]` : ''}`;
  const agreement = a.agreement === null ? 'no verdict' : `agreement ${formatPercent(a.agreement)}`;
  const warn = a.warn ? `; warning: κ below ${KAPPA_WARN}` : '';
  return `${a.judge}: n ${a.n}, ${agreement}, ${kappa}${warn}`;
}

/** The confusion matrix in one line: per person's label, the judge's counts (`fail → fail 7, pass 2`). */
export function confusionLine(a: JudgeAgreement): string {
  return (
    'people → judge: ' +
    a.categories
      .map((h, i) => `${h} → ${a.categories.map((j, k) => `${j} ${a.confusion[i]![k]!}`).join(', ')}`)
      .join('; ')
  );
}

/** The TUI's block of the judge's agreement with people; `''` where the suite has no label on the run's replies. */
export function renderJudgeAgreement(list: readonly JudgeAgreement[] | undefined, width?: number): string {
  if (!list?.length) return '';
  return [
    wrapProse(title(list), width),
    ...list.flatMap((a) => [
      wrapProse(`  ${a.warn ? pc.yellow(agreementLine(a)) : agreementLine(a)}`, width, 4),
      wrapProse(`    ${confusionLine(a)}`, width, 6),
    ]),
  ].join('\n');
}

/** The HTML report's section body on the judge's agreement with people; `''` without labels. */
export function judgeAgreementHtml(snapshot: Pick<Snapshot, 'judgeAgreement'>): string {
  const list = snapshot.judgeAgreement;
  if (!list?.length) return '';
  const matrix = (a: JudgeAgreement) =>
    `<table class="confusion"><tr><th>people ↓ judge →</th>${a.categories.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>` +
    a.categories
      .map((h, i) => `<tr><th>${esc(h)}</th>${a.confusion[i]!.map((n) => `<td>${n}</td>`).join('')}</tr>`)
      .join('') +
    '</table>';
  return (
    `<p class="note">${esc(title(list))}.</p>` +
    list
      .map(
        (a) =>
          `<div class="agreement${a.warn ? ' warn' : ''}"><p>${esc(agreementLine(a))}</p>${matrix(a)}</div>`,
      )
      .join('')
  );
}
