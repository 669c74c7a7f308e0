import {
  JudgeScorer,
  TrajectoryScorer,
  type Case,
  type Json,
  type Metric,
  type Reply,
  type Score,
  type ScorerTools,
} from 'llm-evals';
import { AGENT, JUDGED, keywordOf, rubricOf } from './toy-models.ts';
import { ToyScorer } from './toy-suite.ts';

const fields = new ToyScorer();
const trajectory = new TrajectoryScorer({ mode: 'strict' });
const notPrimary = (m: Metric): Metric => ({
  name: m.name,
  description: m.description,
  ...(m.unit ? { unit: m.unit } : {}),
});
const pick = (metrics: Metric[], names: string[]) =>
  metrics.filter((m) => names.includes(m.name)).map(notPrimary);

/**
 * The toy's scorer, one per dataset: the judge (`fake/judge`, pass/fail against a rubric) grades the free-text
 * answers, the trajectory scorer the tool calls, the field scorer the JSON answers. Each case's `score` (the primary
 * metric) is its own dataset's grade; a metric a dataset has no use for is left empty there. It is a JudgeScorer so
 * that the run lends it the judge, and says which cases go to the judge so that `compare -n` counts only theirs.
 */
export class ToySuiteScorer extends JudgeScorer {
  constructor() {
    super({
      models: ['fake/judge'],
      rubric: rubricOf,
      scale: 'pass_fail',
      reference: true,
    });
  }

  override metrics(): Metric[] {
    return [
      {
        name: 'score',
        description:
          "The case's grade by its own dataset's scorer: field accuracy (animals, colors), the judge's verdict " +
          "(capitals), the tool calls' strict match (weather).",
        primary: true,
      },
      ...fields.metrics().map(notPrimary),
      { name: 'judge', description: "The judge's verdict on a free-text answer: 1 pass, 0 fail." },
      ...pick(trajectory.metrics(), ['tool_f1']),
    ];
  }

  /** Only the free-text answers go to the judge (so `compare -n` counts their verdicts alone). */
  override judges(kase: Case): boolean {
    return kase.dataset === JUDGED;
  }

  override async call(kase: Case, reply: Reply, context: Json, tools?: ScorerTools): Promise<Score> {
    if (kase.dataset === JUDGED) return this.graded(await super.call(kase, reply, context, tools));
    if (kase.dataset === AGENT) return this.graded(await trajectory.call(kase, reply, context, tools));
    return this.graded(fields.call(kase, reply));
  }

  override failed(kase: Case, reply: Reply, context: Json): Score {
    if (kase.dataset === JUDGED) return this.graded({ value: 0, metrics: { judge: 0 } });
    if (kase.dataset === AGENT) return this.graded(trajectory.failed(kase, reply));
    return this.graded(fields.failed(kase, reply, context));
  }

  override verify(kase: Case): string[] {
    if (kase.dataset === JUDGED) return keywordOf(kase) ? [] : ['metadata.json has no keyword'];
    if (kase.dataset === AGENT) return trajectory.verify(kase);
    return fields.verify(kase);
  }

  override summary(kase: Case): string {
    if (kase.dataset === JUDGED) return `names ${keywordOf(kase)}`;
    if (kase.dataset === AGENT) {
      const n = (kase.expected as { tool_calls: Json[] }).tool_calls.length;
      return `${n} tool call${n === 1 ? '' : 's'}`;
    }
    return fields.summary(kase);
  }

  /** A dataset scorer's score as this scorer's: its value as `score`, only the metrics declared here. */
  private graded(score: Score): Score {
    const declared = new Set(this.metrics().map((m) => m.name));
    const metrics = Object.entries(score.metrics).filter(([n]) => declared.has(n));
    return { ...score, metrics: { ...Object.fromEntries(metrics), score: score.value } };
  }
}
