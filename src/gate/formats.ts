import { formatP, type GateResult, type GateRow } from './verdict.ts';

/** What CI shows beside the verdicts: what this run paid, and what the reply cache saved it. */
export interface GateCosts {
  paidUsd: number | null;
  savedUsd: number | null;
}

const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const signed = (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(1)}`;
const dollars = (v: number | null) => (v === null ? 'unknown' : `$${v.toFixed(4)}`);
const VERDICT = {
  regressed: '❌ regressed',
  improved: '✅ improved',
  unchanged: 'unchanged',
  untested: 'not tested',
};

/** The difference and its interval, in points: `−12.5 [−20.0, −5.0]`. */
function difference(row: GateRow): string {
  if (row.diff === null) return '—';
  const ci = row.ci95 ? ` [${signed(row.ci95[0])}, ${signed(row.ci95[1])}]` : '';
  return `${signed(row.diff)}${ci}`;
}

/** Text for a Markdown table cell: its pipes escaped, its lines joined. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * The gate as GitHub-flavoured Markdown, for a pull request's summary: one row per contender and dataset (baseline →
 * now, the difference with its 95 % interval in points, the adjusted p, the verdict), the flipped cases folded, what
 * the runs do not share, and the cost of this run with what the cache saved.
 */
export function gateMarkdown(gate: GateResult, label: (key: string) => string, costs?: GateCosts): string {
  const head = gate.failed
    ? `### ❌ llm-evals: ${gate.reasons.length} regression${gate.reasons.length === 1 ? '' : 's'} against ${gate.baseline}`
    : `### ✅ llm-evals: no regression against ${gate.baseline}`;
  const lines = [
    head,
    '',
    `${gate.primary} of run ${gate.run} against its baseline, paired on the cases both share; Holm across ` +
      `${gate.rows.length} contender × dataset test${gate.rows.length === 1 ? '' : 's'}, α = ${gate.alpha}` +
      `${gate.minDrop > 0 ? `, a regression is ${gate.minDrop} points or more` : ''}` +
      `${gate.maxDrop !== undefined ? `, any drop of ${gate.maxDrop} points fails` : ''}.`,
    '',
    `Paired tests: ${gate.clustering} — ${
      gate.clustered
        ? 'a t-test on clustered standard errors for every metric, pass/fail too'
        : 'exact McNemar for pass/fail, paired t otherwise'
    }.`,
    ...(gate.sample
      ? [
          '',
          `⚠️ A sample: ${gate.sample.share} (--seed ${gate.sample.seed}); at 80 % power this gate detects a ` +
            `drop of ~${gate.sample.detectable} points or more.`,
        ]
      : []),
    '',
    '| contender | dataset | baseline → now | difference (points, 95 % CI) | p (Holm) | verdict |',
    '|---|---|---|---|---|---|',
    ...gate.rows.map(
      (r) =>
        `| ${cell(label(r.contender))} | ${cell(r.dataset)} | ${percent(r.before)} → ${percent(r.after)} | ` +
        `${difference(r)} | ${r.pAdjusted === null ? '—' : formatP(r.pAdjusted).replace('= ', '')} | ` +
        `${r.fails ? `❌ ${cell(r.fails)}` : VERDICT[r.verdict]} |`,
    ),
  ];
  const flipped = gate.rows.filter((r) => r.flippedToWrong > 0);
  if (flipped.length) {
    lines.push('', '<details><summary>cases that went from right to wrong</summary>', '');
    for (const r of flipped)
      lines.push(
        `- ${cell(label(r.contender))} on ${cell(r.dataset)}: ${r.flippedToWrong} ` +
          `(${r.toWrong.map((k) => `\`${k}\``).join(', ')}${r.toWrong.length < r.flippedToWrong ? ', …' : ''})`,
      );
    lines.push('', '</details>');
  }
  const { added, gone, changed } = gate.cases;
  const apart = [
    added.length ? `${added.length} case${added.length === 1 ? '' : 's'} added` : '',
    gone.length ? `${gone.length} removed` : '',
    changed.length ? `${changed.length} edited` : '',
    gate.contenders.added.length ? `new contenders: ${gate.contenders.added.join(', ')}` : '',
    gate.contenders.gone.length ? `contenders gone: ${gate.contenders.gone.join(', ')}` : '',
  ].filter(Boolean);
  if (apart.length) lines.push('', `Not compared: ${apart.join('; ')}.`);
  if (costs)
    lines.push(
      '',
      `This run paid ${dollars(costs.paidUsd)}; the reply cache saved ${dollars(costs.savedUsd)}.`,
    );
  return lines.join('\n') + '\n';
}

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * The gate as JUnit XML, which CI systems list: one test case per contender × dataset verdict, failed when it fails
 * the gate, and one per case that ended in an error (`failedCases`), so each is named where CI shows failures.
 */
export function gateJunit(
  gate: GateResult,
  label: (key: string) => string,
  failedCases: readonly { contender: string; dataset: string; caseKey: string; error: string }[] = [],
): string {
  const verdicts = gate.rows.map((r) => {
    const name = `${label(r.contender)} on ${r.dataset}`;
    const body = r.fails
      ? `<failure message="${xml(r.fails)}">${xml(`${percent(r.before)} → ${percent(r.after)}, ${difference(r)} points`)}</failure>`
      : '';
    return `    <testcase classname="llm-evals.gate" name="${xml(name)}">${body}</testcase>`;
  });
  const cases = failedCases.map(
    (c) =>
      `    <testcase classname="llm-evals.cases.${xml(c.dataset)}" name="${xml(`${label(c.contender)} ${c.caseKey}`)}">` +
      `<failure message="${xml(c.error)}"/></testcase>`,
  );
  const failures = gate.rows.filter((r) => r.fails).length + failedCases.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="llm-evals" tests="${verdicts.length + cases.length}" failures="${failures}">`,
    `  <testsuite name="llm-evals ${xml(gate.run)} against ${xml(gate.baseline)}" tests="${verdicts.length + cases.length}" failures="${failures}">`,
    ...verdicts,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
