import { z } from 'zod';
import type { Snapshot } from '../core/snapshot.ts';
import { agreementOf, type JudgeAgreement } from './agreement.ts';
import type { Scale } from './config.ts';

/**
 * A person's label on one reply, a line of the suite's `labels.jsonl`: the case, the sha256 of the reply's raw text
 * (so the label holds in every run that produced the same reply), the label on the judge's scale, who gave it and when.
 */
export const LabelSchema = z.strictObject({
  case: z.string().min(1),
  reply_sha: z.string().regex(/^[0-9a-f]{64}$/, 'reply_sha is not a sha256 in hex'),
  label: z.union([z.enum(['pass', 'fail']), z.number().int()]),
  by: z.string().optional(),
  at: z.string(),
});
/** One label line. */
export type Label = z.infer<typeof LabelSchema>;

/** A line of a labels file that is not a label: its number (from 1) and why. */
export interface LabelLineProblem {
  line: number;
  message: string;
}

/** Reads a labels file's text, one JSON label a line (blank lines skipped); the first bad line is the problem. */
export function parseLabels(text: string): { labels: Label[] } | { problem: LabelLineProblem } {
  const labels: Label[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      return { problem: { line: i + 1, message: `not JSON (${(error as Error).message})` } };
    }
    const parsed = LabelSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const at = issue.path.length ? `${issue.path.join('.')}: ` : '';
      return { problem: { line: i + 1, message: `not a label: ${at}${issue.message}` } };
    }
    labels.push(parsed.data);
  }
  return { labels };
}

/** The categories of a scale in order: `fail, pass`, or `min … max`. */
export function categoriesOf(scale: Scale): string[] {
  return scale.kind === 'pass_fail'
    ? ['fail', 'pass']
    : Array.from({ length: scale.max - scale.min + 1 }, (_, i) => String(scale.min + i));
}

/** A label as typed (`pass`, `fail`, `4`) on the scale, or `undefined` when the scale has no such value. */
export function parseLabelValue(text: string, scale: Scale): Label['label'] | undefined {
  if (scale.kind === 'pass_fail') return text === 'pass' || text === 'fail' ? text : undefined;
  if (!/^-?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= scale.min && n <= scale.max ? n : undefined;
}

/** A label's category index on the scale, or `undefined` off it. */
function labelIndex(label: Label['label'], scale: Scale): number | undefined {
  const i = categoriesOf(scale).indexOf(String(label));
  return i < 0 ? undefined : i;
}

/** A judge's verdict on 0–1 as a category index: pass/fail, or the nearest point of the scale (a panel's median may fall between). */
function verdictIndex(value: number, scale: Scale): number {
  return scale.kind === 'pass_fail' ? (value >= 0.5 ? 1 : 0) : Math.round(value * (scale.max - scale.min));
}

/** Where each judge's verdict is read in a result: the `judge` metric, or a panel member's `judge.<model>`. */
export interface JudgeColumns {
  scale: Scale;
  /** The judge models as the lineup names them: one, or a panel. */
  models: string[];
}

/**
 * Each judge's agreement with the labels on this run's replies, and the panel's when there is one: a reply counts
 * where a label names its case and the sha of its text (`shaOf`) and the judge gave a verdict. The newest label of a
 * reply wins. Empty when no label matches a reply.
 */
export function judgeAgreements(
  snapshot: Pick<Snapshot, 'results'>,
  labels: readonly Label[],
  judge: JudgeColumns,
  shaOf: (text: string) => string,
): JudgeAgreement[] {
  const byReply = new Map<string, Label['label']>();
  for (const l of labels) byReply.set(`${l.case}\n${l.reply_sha}`, l.label);
  if (byReply.size === 0) return [];
  const panel = judge.models.length > 1;
  const columns = panel
    ? [...judge.models.map((m) => ({ name: m, metric: `judge.${m}` })), { name: 'panel', metric: 'judge' }]
    : [{ name: judge.models[0]!, metric: 'judge' }];
  const pairs = new Map(columns.map((c) => [c.name, [] as [number, number][]]));
  let labelled = 0;
  for (const r of snapshot.results) {
    if (r.reply === undefined) continue;
    const label = byReply.get(`${r.caseKey}\n${shaOf(r.reply)}`);
    const human = label === undefined ? undefined : labelIndex(label, judge.scale);
    if (human === undefined) continue;
    labelled++;
    for (const c of columns) {
      const v = r.metrics[c.metric];
      if (typeof v === 'number') pairs.get(c.name)!.push([human, verdictIndex(v, judge.scale)]);
    }
  }
  if (labelled === 0) return [];
  const categories = categoriesOf(judge.scale);
  return columns.map((c) =>
    agreementOf({
      judge: c.name,
      categories,
      weighted: judge.scale.kind === 'range',
      pairs: pairs.get(c.name)!,
    }),
  );
}
