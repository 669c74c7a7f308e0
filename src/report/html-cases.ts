import { formatCost, formatPercent, formatSeconds } from './format.ts';
import { esc, escJson, safeId } from './html-escape.ts';
import { contenderHtml } from './html-standings.ts';
import { trajectoryHtml } from './html-trajectory.ts';
import { conversationOf, conversationText } from './conversation.ts';
import { withoutRepeat } from '../core/matrix.ts';
import type { Snapshot } from '../core/snapshot.ts';

type Result = Snapshot['results'][number];
type Contender = { contender: Snapshot['contenders'][number]; contenderIndex: number };

/** A case's input as HTML: a conversation (`input.json`) a message a line, any other input as it is. */
export function inputHtml(input: string): string {
  const messages = conversationOf(input);
  return messages
    ? `<h4>Conversation</h4><pre class="conversation">${esc(conversationText(messages))}</pre>`
    : `<h4>Input</h4><pre>${esc(input)}</pre>`;
}

/** One contender's result for a case as HTML: status, score, metrics, latency, cost, reply and diagnostics. */
export function resultHtml(snapshot: Snapshot, who: Contender, r: Result | undefined): string {
  if (!r) return `<div class="result"><p><strong>${contenderHtml(who)}</strong> · not run</p></div>`;
  const metrics = snapshot.metrics.map((m) => {
    const value = r.metrics[m.name];
    // A count (an agent's steps) as a number, a share as a percentage.
    const text = m.unit === 'count' ? String(value ?? '–') : formatPercent(value);
    return `${esc(m.name)} ${esc(text)}`;
  });
  const outcomes = Object.entries(r.outcomes)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${esc(k)} ${esc(n)}`);
  const facts = [
    `<span class="status-${esc(r.status)}">${esc(r.status)}</span>`,
    ...(r.truncated ? ['<span class="status-error">cut at the token limit</span>'] : []),
    ...(snapshot.metrics.some((m) => m.name === 'score') ? [] : [`score ${esc(formatPercent(r.score))}`]),
    ...metrics,
    `latency ${esc(formatSeconds(r.latency))}`,
    `cost ${esc(formatCost(r.usage.costUsd))}`,
    ...(outcomes.length ? [`outcomes: ${outcomes.join(', ')}`] : []),
  ];
  const cut = r.replyTruncated ? ' <span class="note">(cut at 16 KB)</span>' : '';
  const reply =
    r.reply !== undefined
      ? `<h4>Reply${cut}</h4><pre>${esc(r.reply)}</pre>`
      : r.output !== undefined
        ? `<h4>Output</h4><pre>${escJson(r.output)}</pre>`
        : '<h4>Reply</h4><p class="note">none</p>';
  const diagnostics = Object.keys(r.diagnostics).length
    ? `<h4>Diagnostics</h4><pre>${escJson(r.diagnostics)}</pre>`
    : '<h4>Diagnostics</h4><p class="note">none</p>';
  const error = r.error !== undefined ? `<p class="status-error">${esc(r.error)}</p>` : '';
  const expected = r.trajectory ? snapshot.cases.find((c) => c.key === r.caseKey)?.expected : undefined;
  return (
    `<div class="result"><p><strong>${contenderHtml(who)}</strong> · ${facts.join(' · ')}</p>${error}\n` +
    trajectoryHtml(r, expected) +
    `<div class="io"><div>${reply}</div><div>${diagnostics}</div></div></div>`
  );
}

/** Every case, dataset by dataset: its input, expected answer and each contender's reply, score and diagnostics. */
export function casesHtml(snapshot: Snapshot): string {
  const index = new Map(snapshot.contenders.map((c, i) => [c.key, i]));
  const results = new Map(snapshot.results.map((r) => [`${r.experimentId}\u0000${r.caseKey}`, r]));
  const datasets = [...new Set(snapshot.cases.map((c) => c.dataset))];
  return datasets
    .map((dataset) => {
      const experiments = snapshot.experiments.filter((e) => e.dataset === dataset);
      const cases = snapshot.cases.filter((c) => c.dataset === dataset);
      const blocks = cases.map((kase) => {
        const rows = experiments.map((e) => {
          const contenderIndex = index.get(e.contender) ?? 0;
          const who = { contender: snapshot.contenders[contenderIndex]!, contenderIndex };
          return { who, result: results.get(`${e.id}\u0000${kase.key}`) };
        });
        // With --repeat, one chip per contender with each repeat's score, not one per repeat.
        const byContender = new Map<string, { who: Contender; scores: string[] }>();
        for (const { who, result } of rows) {
          const c = who.contender;
          const base = c.repeat === undefined ? c : withoutRepeat(c);
          const entry = byContender.get(base.key) ?? { who: { ...who, contender: base }, scores: [] };
          entry.scores.push(result ? formatPercent(result.score) : 'not run');
          byContender.set(base.key, entry);
        }
        const chips = [...byContender.values()].map(
          ({ who, scores }) => `<span class="chip">${contenderHtml(who)} ${esc(scores.join(' · '))}</span>`,
        );
        return (
          `<details class="case" id="case-${esc(safeId(kase.key))}"><summary>${esc(kase.id)}${chips.join('')}</summary>\n` +
          `<div class="io"><div>${inputHtml(kase.input)}</div>` +
          `<div><h4>Expected</h4><pre>${escJson(kase.expected)}</pre></div></div>\n` +
          rows.map(({ who, result }) => resultHtml(snapshot, who, result)).join('\n') +
          '\n</details>'
        );
      });
      return `<h3>${esc(dataset)}</h3>\n${blocks.join('\n')}`;
    })
    .join('\n');
}
