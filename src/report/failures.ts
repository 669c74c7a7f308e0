import pc from 'picocolors';
import { withoutCase, type ContenderFailures } from '../core/failures.ts';
import { withoutRepeat } from '../core/matrix.ts';
import { failuresOf, type Snapshot } from '../core/snapshot.ts';
import { contenderName } from './columns.ts';
import { esc } from './html-escape.ts';
import { contenderLabel } from './palette.ts';
import { wrapProse } from './text-width.ts';

/** A failed contender's name and settings, its index for the colour, and its failures. */
export interface NamedFailures extends ContenderFailures {
  /** The contender's id with the settings that tell it apart, such as `fake/echo low t=0.1`. */
  name: string;
  /** The contender (with `--repeat`, the one its repeats belong to), for its name and settings. */
  base: Snapshot['contenders'][number];
  index: number;
}

/**
 * A contender's reasons with the case each names taken out and those then alike merged: a snapshot saved before
 * reasons were grouped so holds one row per case (`this worker has no case d/v/0042`).
 */
function regrouped(f: ContenderFailures): ContenderFailures {
  return mergeFailures({ ...f, cases: 0, scored: 0, errors: 0, messages: [] }, f);
}

/** Two failure summaries of one contender (two of its repeats) as one: counts added, reasons merged, most first. */
function mergeFailures(a: ContenderFailures, b: ContenderFailures): ContenderFailures {
  const messages = new Map(a.messages.map((m) => [m.message, { ...m }]));
  for (const named of b.messages) {
    const m = { ...named, message: withoutCase(named.message, named.example) };
    const known = messages.get(m.message);
    if (known) known.count += m.count;
    else messages.set(m.message, m);
  }
  return {
    contender: a.contender,
    cases: a.cases + b.cases,
    scored: a.scored + b.scored,
    errors: a.errors + b.errors,
    messages: [...messages.values()].sort((x, y) => y.count - x.count),
  };
}

/**
 * The snapshot's failures with each contender's name and index, in lineup order; with `--repeat`, a contender's
 * repeats are one contender here as in the standings (a repeat is a pass, not a model).
 */
export function namedFailures(snapshot: Snapshot): NamedFailures[] {
  const index = new Map(snapshot.contenders.map((c, i) => [c.key, i]));
  const merged = new Map<string, NamedFailures>();
  for (const f of failuresOf(snapshot)) {
    const i = index.get(f.contender);
    if (i === undefined) continue;
    const c = snapshot.contenders[i]!;
    const base = c.repeat === undefined ? c : withoutRepeat(c);
    const known = merged.get(base.key);
    if (known) merged.set(base.key, { ...known, ...mergeFailures(known, f) });
    else
      merged.set(base.key, {
        ...regrouped(f),
        contender: base.key,
        name: contenderName(base),
        base,
        index: i,
      });
  }
  return [...merged.values()];
}

/** `every call failed (11 of 11)` (no reply to score at all) or `2 of 30 cases failed`. */
export function failureHeadline(f: Pick<ContenderFailures, 'cases' | 'errors' | 'scored'>): string {
  if (f.scored === 0) return `every call failed (${f.errors} of ${f.cases})`;
  return `${f.errors} of ${f.cases} case${f.cases === 1 ? '' : 's'} failed`;
}

/**
 * The TUI's error summary (after the leaderboard, before the glossary): per contender with a failure, a headline,
 * then each distinct reason with its count and first case —
 * `fake/gpt-x: 11 × HTTP 404: model not found (e.g. roofing/clear/001)`. Empty when nothing failed.
 */
export function renderFailures(snapshot: Snapshot, width?: number): string {
  const named = namedFailures(snapshot);
  if (named.length === 0) return '';
  const lines = named.flatMap((f) => {
    const title = contenderLabel(f.base, f.index) + f.name.slice(f.base.id.length);
    const headline = f.scored === 0 ? pc.red(failureHeadline(f)) : failureHeadline(f);
    return [
      `  ${pc.bold(title)}: ${headline}`,
      ...f.messages.map((m) => `    ${title}: ${m.count} × ${m.message} ${pc.dim(`(e.g. ${m.example})`)}`),
    ];
  });
  return [pc.bold('Errors by contender'), ...lines.map((l) => wrapProse(l, width, 6))].join('\n');
}

/** The HTML report's error summary: per contender with a failure, its headline and a table of reasons; `''` if none. */
export function failuresHtml(snapshot: Snapshot, contenderHtml: (f: NamedFailures) => string): string {
  const named = namedFailures(snapshot);
  if (named.length === 0) return '';
  const blocks = named.map((f) => {
    const rows = f.messages.map(
      (m) => `<tr><td class="num">${m.count}</td><td>${esc(m.message)}</td><td>${esc(m.example)}</td></tr>`,
    );
    const headline = `<p>${contenderHtml(f)}: <span${f.scored === 0 ? ' class="err"' : ''}>${esc(failureHeadline(f))}</span></p>`;
    return (
      `${headline}\n<table><thead><tr><th class="num">cases</th><th>reason</th><th>e.g.</th></tr></thead>` +
      `<tbody>\n${rows.join('\n')}\n</tbody></table>`
    );
  });
  return blocks.join('\n');
}
