/** What one judged reply says about its judges: each member's value and samples read, the panel's, the unstable ones. */
export interface JudgedReply {
  /** Which reply: the case and the contender, as the report names them. */
  reply: string;
  /** Each judge's verdict on 0–1 (`null`: failed or tied), by model. */
  members: Record<string, number | null>;
  /** The panel's verdict on 0–1; the one judge's without a panel. */
  panel: number | null;
  /** Each judge's samples read on this reply. */
  samples: Record<string, number>;
  /** The judges whose samples on this reply differ. */
  unstable: string[];
}

/** One judge's variance and its part in the panel. */
export interface JudgeVariance {
  judge: string;
  /** Replies it read more than one sample of. */
  sampled: number;
  /** Of those, the share whose samples all agree; `null` when it read one sample a reply. */
  selfAgreement: number | null;
  /** The replies whose samples differ, as named. */
  unstable: string[];
  /** Its mean verdict on 0–1 over the replies it gave one on. */
  mean: number | null;
  /** Replies where it and the panel both gave a verdict, and the share where they were the same. */
  withPanel: number;
  panelAgreement: number | null;
}

/**
 * Each judge's self-agreement over its k samples (the share of replies whose samples all agree, and which did not),
 * its mean, and how often it agreed with the panel's verdict (only meaningful with a panel).
 */
export function judgeVariance(models: readonly string[], replies: readonly JudgedReply[]): JudgeVariance[] {
  return models.map((judge) => {
    const sampled = replies.filter((r) => (r.samples[judge] ?? 0) > 1);
    const unstable = sampled
      .filter((r) => r.unstable.includes(judge))
      .map((r) => r.reply)
      .sort();
    const values = replies.map((r) => r.members[judge]).filter((v): v is number => typeof v === 'number');
    const both = replies.filter((r) => typeof r.members[judge] === 'number' && r.panel !== null);
    const same = both.filter((r) => r.members[judge] === r.panel).length;
    return {
      judge,
      sampled: sampled.length,
      selfAgreement: sampled.length ? (sampled.length - unstable.length) / sampled.length : null,
      unstable,
      mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
      withPanel: both.length,
      panelAgreement: both.length ? same / both.length : null,
    };
  });
}
