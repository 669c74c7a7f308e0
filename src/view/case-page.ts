import { formatCost, formatCount, formatSeconds } from '../report/format.ts';
import { inputHtml, resultHtml } from '../report/html-cases.ts';
import { esc, escJson } from '../report/html-escape.ts';
import type { RunBase, RunView } from './model.ts';
import { labelHtml, type ProjectLabels } from './labels.ts';
import { caseHref, layout, type PageContext } from './pages.ts';

type Result = RunView['snapshot']['results'][number];

/** Where a result's reply came from: this run's batch, the reply cache, `--cache-only`'s skip, or a call. */
export type ReplyOrigin = 'batch' | 'cache' | 'skipped' | 'call';

/** Where a result's reply came from, as a word for the page's markup and tests. */
export function replyOrigin(r: Result): ReplyOrigin {
  if (r.skipped) return 'skipped';
  if (r.cached) return 'cache';
  return r.batch ? 'batch' : 'call';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Where a result's reply came from, in words: this run's own batch (which one, at the batch price), the reply cache
 * (which run paid for it, how many replies, how many calls this run made and paid), else a call. `undefined` when it
 * was a plain call.
 */
export function replySource(r: Result): string | undefined {
  if (r.skipped) return 'not called: the reply cache had no reply for it (--cache-only)';
  const named = (one: string, many: string, ids: readonly string[]) =>
    `${ids.length === 1 ? one : many} ${ids.join(', ')}`;
  const batch = r.batch
    ? `from ${r.batch.ids.length ? named('batch', 'batches', r.batch.ids) : 'a batch'} of this run (at the batch price)`
    : undefined;
  const cached = r.cached;
  if (!cached) return batch;
  const runs = cached.runs?.length ? ` (${named('run', 'runs', cached.runs)})` : '';
  const replies = plural(cached.replies, 'reply', 'replies');
  const calls = cached.calls
    ? `, ${plural(cached.calls, 'call', 'calls')} made (${formatCost(cached.paidUsd)} paid by this run${batch ? `, ${batch}` : ''})`
    : ', no call made (nothing paid by this run)';
  return `from the reply cache${runs}: ${replies}${calls}; latency, tokens and cost are those of the calls that first paid for them`;
}

/** What the report's result block leaves out and a case page has room for: where the reply came from, tokens, time. */
function extraFacts(r: Result | undefined): string {
  if (!r) return '';
  const source = replySource(r);
  const facts = [
    `tokens in ${formatCount(r.usage.inputTokens)}, out ${formatCount(r.usage.outputTokens)}`,
    `${r.attempts} ${r.attempts === 1 ? 'call' : 'calls'}`,
    `took ${formatSeconds(r.duration)}`,
    ...(r.waited ? [`waited ${formatSeconds(r.waited)}`] : []),
    `finished ${r.finishedAt}`,
  ];
  return (
    `<p class="note source" data-source="${replyOrigin(r)}">` +
    `${esc(source ?? 'called for this run')}</p>` +
    `<p class="note facts">${facts.map(esc).join(' · ')}</p>`
  );
}

/**
 * A case's page: its input, expected answer and metadata, then each contender's result side by side (the HTML
 * report's own result block: status, score, metrics, reply, diagnostics), with tokens and attempts. `undefined` when
 * the run planned no such case.
 */
export function casePage(
  view: RunView,
  base: RunBase,
  caseKey: string,
  context: PageContext = {},
  labelling?: { labels: ProjectLabels; csrf: string },
): string | undefined {
  const { snapshot } = view;
  const experiments = snapshot.experiments.filter((e) => e.caseKeys.includes(caseKey));
  if (experiments.length === 0) return undefined;
  const kase = snapshot.cases.find((c) => c.key === caseKey);
  const index = new Map(snapshot.contenders.map((c, i) => [c.key, i]));
  const results = new Map(
    snapshot.results.filter((r) => r.caseKey === caseKey).map((r) => [r.experimentId, r]),
  );
  const columns = experiments.map((e) => {
    const contenderIndex = index.get(e.contender) ?? 0;
    const who = { contender: snapshot.contenders[contenderIndex]!, contenderIndex };
    const r = results.get(e.id);
    // A person's label on the reply, and the form that gives one, where the run's suite has a judge.
    const label =
      labelling && r?.reply !== undefined
        ? labelHtml(
            labelling.labels,
            { action: `${base}/label`, csrf: labelling.csrf, caseKey, experiment: e.id },
            caseKey,
            r.reply,
          )
        : '';
    return `<div class="contender" data-experiment="${esc(e.id)}">${resultHtml(snapshot, who, r)}${label}${extraFacts(r)}</div>`;
  });
  const io = kase
    ? `<div class="io"><div>${inputHtml(kase.input)}</div>` +
      `<div><h4>Expected</h4><pre>${escJson(kase.expected)}</pre></div></div>\n` +
      (Object.keys(kase.metadata).length ? `<h4>Metadata</h4><pre>${escJson(kase.metadata)}</pre>` : '')
    : '<p class="note">The case is not on disk any more (or its project is not readable here): its input and expected answer are unknown.</p>';
  const body = [
    `<p><a href="${esc(base)}#cases">← run ${esc(snapshot.runId)}</a></p>`,
    `<h1>${esc(caseKey)} <span class="note">${esc(snapshot.suite.name)}</span></h1>`,
    // A run that goes on answers more of its cases: this page does not follow it.
    view.closed || view.saved
      ? ''
      : `<p class="note as-of">The run goes on: these replies are as of ${esc(new Date().toISOString().slice(11, 19))} UTC; ` +
        `<a href="${esc(caseHref(base, caseKey))}">reload</a> for those finished since.</p>`,
    io,
    `<h2>Replies</h2>\n<div class="side">\n${columns.join('\n')}\n</div>`,
  ];
  return layout(`${caseKey} · ${snapshot.runId}`, body.filter(Boolean).join('\n'), context);
}
