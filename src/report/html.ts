import { clusteringNote, clusteringOfSnapshot } from './significance.ts';
import { batchLabel } from '../core/batch.ts';
import { reportColumns } from './columns.ts';
import { cacheHtml } from './cache-line.ts';
import { counted, formatCount } from './format.ts';
import { CSP, SCRIPT, STYLE } from './html-assets.ts';
import { casesHtml } from './html-cases.ts';
import { changeHtml } from './html-change.ts';
import { trendSvg } from './trend-chart.ts';
import { esc, escJson } from './html-escape.ts';
import { consistencyHtml } from './consistency.ts';
import { failuresHtml } from './failures.ts';
import { judgeAgreementHtml } from './judge-agreement.ts';
import { pairwiseHtml } from './pairwise.ts';
import { judgeVarianceHtml } from './judge-variance.ts';
import {
  bestHtml,
  bestSummaryHtml,
  contenderHtml,
  glossaryHtml,
  standingsHtml,
  weightsHtml,
} from './html-standings.ts';
import { withoutRepeat } from '../core/matrix.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { rescoreNote } from './rescore-note.ts';
import { standings } from './standings.ts';
import { valueChartsHtml } from './value-chart.ts';

/** `3 contenders × 2 datasets`; with `--repeat`, `3 contenders × 3 repeats × 2 datasets`: a repeat is no contender. */
function contendersText(snapshot: Snapshot, datasets: number): string {
  const repeat = snapshot.settings.repeat ?? 1;
  const contenders = new Set(snapshot.contenders.map((c) => (c.repeat ? withoutRepeat(c).key : c.key))).size;
  const repeats = repeat > 1 ? ` × ${counted(repeat, 'repeat')}` : '';
  return `${counted(contenders, 'contender')}${repeats} × ${counted(datasets, 'dataset')}`;
}

function header(snapshot: Snapshot, ranking: string, failed: boolean): string {
  const datasets = new Set(snapshot.experiments.map((e) => e.dataset)).size;
  const facts = [
    `run ${esc(snapshot.runId)}`,
    esc(snapshot.status),
    `${esc(snapshot.createdAt)} → ${esc(snapshot.finishedAt)}`,
    contendersText(snapshot, datasets),
    `${formatCount(snapshot.cases.length)} cases, ${formatCount(snapshot.results.length)} results`,
    `ranked by ${esc(ranking)}`,
  ];
  const expected = snapshot.experiments.reduce((n, e) => n + e.caseKeys.length, 0);
  const banner =
    snapshot.status === 'completed' || snapshot.status === 'regressed'
      ? ''
      : `<p class="banner">This run is ${esc(snapshot.status)}: ${snapshot.results.length} of ${expected} case results.</p>`;
  const rescore = rescoreNote(snapshot);
  return [
    `<h1>${esc(snapshot.suite.name)}</h1>`,
    rescore ? `<p class="banner rescore">${esc(rescore)}</p>` : '',
    snapshot.suite.description ? `<p>${esc(snapshot.suite.description)}</p>` : '',
    `<p class="meta">${facts.join(' · ')}</p>`,
    banner,
    '<nav>' +
      (failed ? '<a href="#errors">Errors</a>' : '') +
      (snapshot.change ? '<a href="#change">Change</a>' : '') +
      (snapshot.trend?.runs.length ? '<a href="#trend">Trend</a>' : '') +
      '<a href="#best">Best value</a><a href="#value">Value picture</a><a href="#overall">Global standings</a><a href="#datasets">By dataset</a>' +
      '<a href="#variants">By variant</a><a href="#cases">Cases</a><a href="#glossary">Glossary</a>' +
      '<a href="#run">Run</a></nav>',
  ]
    .filter(Boolean)
    .join('\n');
}

const LEGEND =
  '<p class="legend note"><span class="b">best</span><span class="v">best value</span>click a header to sort</p>';

/** A `--batch` run's word on its costs, after the standings' note. */
function batchNote(snapshot: Snapshot): string {
  const batch = snapshot.settings.batch;
  return batch ? ` Costs at the batch price (${esc(batchLabel(batch.discounts))}).` : '';
}

function runSection(snapshot: Snapshot): string {
  const refused = snapshot.refused.length
    ? `<h3>Refused</h3><ul>${snapshot.refused.map((r) => `<li>${esc(r.message)}</li>`).join('')}</ul>`
    : '';
  return (
    `<h3>Settings</h3><pre>${escJson(snapshot.settings)}</pre>\n` +
    `<h3>Command-line options</h3><pre>${escJson(snapshot.options)}</pre>\n${refused}`
  );
}

/**
 * The standalone HTML report: a pure, deterministic function of the snapshot, so `render` reproduces compare's
 * file byte for byte. Everything from the run is escaped; the only script is our own, allowed by hash.
 */
export function renderHtml(snapshot: Snapshot): string {
  const s = standings(snapshot);
  const columns = reportColumns(snapshot, true);
  const section = (id: string, title: string, body: string) =>
    `<section id="${id}">\n<h2>${title}</h2>\n${body}\n</section>`;
  const perGroup = (tables: typeof s.datasets, anchors: boolean) =>
    tables
      .map(
        (t) => `<h3>${esc(t.group)}</h3>\n${standingsHtml(t, columns, anchors)}\n${bestHtml(t, s.ranking)}`,
      )
      .join('\n');
  const failures = failuresHtml(snapshot, (f) =>
    contenderHtml({ contender: f.base, contenderIndex: f.index }),
  );
  const body = [
    header(snapshot, s.ranking, Boolean(failures)),
    failures
      ? section(
          'errors',
          'Errors',
          '<p class="note">Why cases failed, per contender: each distinct reason, how many cases, and the first.</p>\n' +
            failures,
        )
      : '',
    snapshot.change
      ? section('change', 'Change since the previous run', changeHtml(snapshot.change, snapshot.regression))
      : '',
    snapshot.trend && snapshot.trend.runs.length
      ? section(
          'trend',
          'Trend',
          `<p class="note">${esc(snapshot.trend.primary)} of each contender over the schedule's last runs, oldest on the left.</p>\n${trendSvg(snapshot.trend)}`,
        )
      : '',
    section(
      'best',
      'Best value',
      `<p class="note">The best, and the cheapest contender within 2 points of it; a contender with errors is never named.</p>\n${bestSummaryHtml(s)}`,
    ),
    section(
      'value',
      'Value picture',
      `<p class="note">Each dataset's contenders: ${esc(s.ranking)} against cost and against p95 latency, on log scales. ` +
        'The dashed line is the Pareto front: no contender is both cheaper (or faster) and better than one on it. ' +
        'Numbers are the ranks in the standings; the best is ringed in green, the best value in amber, a contender ' +
        'with errors is hollow.</p>\n' +
        valueChartsHtml(snapshot, s),
    ),
    section(
      'overall',
      'Global standings',
      `<p class="note">Each contender across all cases.${batchNote(snapshot)}</p>\n${LEGEND}\n${standingsHtml(s.overall, columns)}\n${bestHtml(s.overall, s.ranking)}`,
    ),
    section(
      'datasets',
      'Standings by dataset',
      `<p class="note">${esc(clusteringNote(clusteringOfSnapshot(snapshot)))}.</p>\n${LEGEND}\n${perGroup(s.datasets, true)}`,
    ),
    section(
      'variants',
      'Leaderboards by variant',
      `<p class="note">Each case folder across datasets.</p>\n${perGroup(s.variants, false)}`,
    ),
    snapshot.weights ? section('weights', 'Weights', weightsHtml(snapshot.weights)) : '',
    consistencyHtml(snapshot)
      ? section('consistency', 'Consistency over repeats', consistencyHtml(snapshot))
      : '',
    snapshot.judgeAgreement?.length
      ? section('agreement', 'Judge agreement with people', judgeAgreementHtml(snapshot))
      : '',
    judgeVarianceHtml(snapshot)
      ? section('judge-variance', 'Judge variance and panel', judgeVarianceHtml(snapshot))
      : '',
    pairwiseHtml(snapshot) ? section('pairwise', 'Pairwise', pairwiseHtml(snapshot)) : '',
    snapshot.cache ? section('cache', 'Reply cache', cacheHtml(snapshot)) : '',
    section('cases', 'Cases', casesHtml(snapshot)),
    section('glossary', 'Glossary', glossaryHtml(columns)),
    section('run', 'Run', runSection(snapshot)),
  ].filter(Boolean);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(snapshot.suite.name)} · ${esc(snapshot.runId)} · llm-evals</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    ...body,
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
