import { z } from 'zod';
import type { Contender, Experiment } from './matrix.ts';
import { groupBy } from './group.ts';
import type { CaseResult } from './results.ts';

/** One distinct reason cases failed: how many, and the first case it hit. */
export const FailureGroupSchema = z.object({
  /** The reason, the case it names taken out (`‹case›`), so that one reason is one group. */
  message: z.string(),
  count: z.number(),
  /** The case key of the first case it hit, such as `roofing/clear/001`. */
  example: z.string(),
});

/** A contender's failures: its cases, how many were scored, and the distinct reasons the others failed. */
export const ContenderFailuresSchema = z.object({
  /** The contender's key. */
  contender: z.string(),
  cases: z.number(),
  /**
   * Cases the scorer graded, a failed reply's included (scored as a failure); 0 means no call of the contender got a
   * reply at all (a wrong id, a server down): nothing to rank.
   */
  scored: z.number(),
  /** Cases that did not end `scored`: call errors and failed replies. */
  errors: z.number(),
  /** Most frequent first. */
  messages: z.array(FailureGroupSchema),
});
/** A contender's failures: its cases, how many were scored, and the distinct reasons the others failed. */
export type ContenderFailures = z.infer<typeof ContenderFailuresSchema>;

/** Why cases failed, per contender with an error or without a scored case, in lineup order. */
export const FailureSummarySchema = z.array(ContenderFailuresSchema);
/** Why cases failed, per contender with an error or without a scored case, in lineup order. */
export type FailureSummary = z.infer<typeof FailureSummarySchema>;

/** A grouped message is kept at most this long; the case's result keeps the whole text. */
const MESSAGE_CAP = 300;

/** Text on one line: control characters and runs of white space become one space. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** What stands for the case in a grouped reason whose message named it. */
export const CASE_MARK = '‹case›';

/** `text` with each whole mention of the case (its key, or its key without the dataset) replaced by {@link CASE_MARK}. */
export function withoutCase(text: string, caseKey: string): string {
  const slash = caseKey.indexOf('/');
  const names = [caseKey, ...(slash > 0 ? [caseKey.slice(slash + 1)] : [])].filter((n) => n.includes('/'));
  for (const name of names) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Not inside a longer name: `d/v/0042` is not in `d/v/00421`, nor `v/0042` in `d/v/0042` once that is marked.
    text = text.replace(new RegExp(`(?<![\\w./-])${escaped}(?![\\w/-])`, 'g'), CASE_MARK);
  }
  return text;
}

/**
 * The reason a failed case is grouped under. A call's error loses the `provider id: ` the contender already names,
 * and the case's own key (`this worker has no case d/v/0042`), which would make a group per case.
 * A reply's error keeps only what comes before its first `: `, since adapters follow it with the reply itself
 * (`not JSON: {"name": …`), which differs case by case; a cut reply's keeps the limit and that word.
 */
export function failureReason(
  result: Pick<CaseResult, 'status' | 'error'>,
  contender: Contender,
  caseKey?: string,
): string {
  let text = oneLine(result.error ?? 'failed without a message');
  const prefix = `${contender.provider} ${contender.id}: `;
  if (text.startsWith(prefix)) text = text.slice(prefix.length);
  if (caseKey) text = withoutCase(text, caseKey);
  if (result.status === 'reply_error') {
    const parts = text.split(': ');
    // A cut reply's error names the limit, then the adapter's own word (`cut at max_tokens 80: not JSON`).
    const head = parts.slice(0, parts[0]!.startsWith('cut at ') ? 2 : 1).join(': ');
    if (head) text = head;
  }
  return text.length > MESSAGE_CAP ? `${text.slice(0, MESSAGE_CAP - 1)}…` : text;
}

/**
 * Groups a run's failed cases per contender and reason (error summary), in lineup order, each reason with its
 * count and first case (in the experiments' case order). A contender appears when a case of it failed or none was
 * scored. Pure: the snapshot stores it, and a report of an older snapshot computes it.
 */
export function summarizeFailures(
  contenders: readonly Contender[],
  experiments: readonly Experiment[],
  results: readonly CaseResult[],
): FailureSummary {
  // Per experiment, then per case, one experiment's cases at a time: every experiment's at once held a map entry
  // per result of the run.
  const byExperiment = groupBy(results, (r) => r.experimentId);
  return contenders.flatMap((contender) => {
    const groups = new Map<string, { count: number; example: string; order: number }>();
    let cases = 0;
    let scored = 0;
    for (const e of experiments.filter((x) => x.contender === contender.key)) {
      const byCase = new Map<string, CaseResult>();
      for (const r of byExperiment.get(e.id) ?? []) byCase.set(r.caseKey, r);
      for (const key of e.caseKeys) {
        const result = byCase.get(key);
        if (!result) continue;
        cases++;
        if (result.status !== 'error') scored++;
        if (result.status === 'scored') continue;
        const reason = failureReason(result, contender, key);
        const group = groups.get(reason) ?? { count: 0, example: key, order: groups.size };
        group.count++;
        groups.set(reason, group);
      }
    }
    const errors = [...groups.values()].reduce((n, g) => n + g.count, 0);
    if (cases === 0 || (errors === 0 && scored > 0)) return [];
    const messages = [...groups]
      .sort(([, a], [, b]) => b.count - a.count || a.order - b.order)
      .map(([message, { count, example }]) => ({ message, count, example }));
    return [{ contender: contender.key, cases, scored, errors, messages }];
  });
}
