import { failedScore, Scorer, type ScorerTools } from '../api/scorer.ts';
import type { Case, Json, Metric, Reply, Score } from '../api/types.ts';
import { parseScale, scaleText, type Scale } from '../judge/config.ts';
import { panelVerdict, sampleVerdict, type JudgeVerdict } from '../judge/panel.ts';
import { JUDGE_SYSTEM, judgePrompt } from '../judge/prompt.ts';
import { parseVerdict, verdictSchema, type VerdictResult } from '../judge/verdict.ts';

/** How a JudgeScorer grades: its panel, rubric (text or a function of the case), scale, reference and samples. */
export interface JudgeScorerOptions {
  /** One judge model or a panel, as the lineup names them (`fake/judge`, `openai/gpt-4o-mini`). */
  models: string[];
  rubric: string | ((kase: Case) => string);
  /** `pass_fail` or an integer range `a-b`. */
  scale: string;
  /** Show the judge the case's expected answer. */
  reference?: boolean;
  /** Verdicts per reply and judge (majority or median); default 1. */
  samples?: number;
  /** The helper's own scorer, whose metrics the judge's join (its value stays the score). */
  inner?: Scorer;
}

/** A judge that gave no verdict: named, with its raw text, never scored 0 or 1. */
export class JudgeFailed extends Error {
  override name = 'JudgeFailed';
}

/** Asked to grade where no run lends it a model (verify's offline check of an expected answer). */
export class JudgeOffline extends Error {
  override name = 'JudgeOffline';
}

/** A failed provider call that will not be retried (the run's TransportError says so in its verdict). */
export function finalFailure(error: unknown): boolean {
  const verdict = (error as { verdict?: { retry?: unknown } } | null)?.verdict;
  return error instanceof Error && verdict !== undefined && verdict.retry === false;
}

/** The metric of a panel member. */
export const memberMetric = (model: string) => `judge.${model}`;

/**
 * A scorer that asks a judge model (or a panel) for a verdict on each reply, through the run's machinery. Its metric
 * `judge` is the verdict on 0–1 (the panel's majority or median; `null` on a tie), and `judge.<model>` each member's
 * when there is a panel. A reply no judge gave a readable verdict on is a judge failure (an error naming the raw
 * text), not a 0.
 */
export class JudgeScorer extends Scorer {
  readonly scale: Scale;
  readonly samples: number;

  constructor(readonly options: JudgeScorerOptions) {
    super();
    const scale = parseScale(options.scale);
    if (!scale)
      throw new Error(
        `the judge's scale ${JSON.stringify(options.scale)} is not pass_fail or an integer range a-b`,
      );
    if (options.models.length === 0) throw new Error('the judge names no model');
    this.scale = scale;
    this.samples = options.samples ?? 1;
  }

  metrics(): Metric[] {
    const inner = this.options.inner?.metrics() ?? [];
    const primary = inner.length === 0;
    const what = `the judge's verdict (${scaleText(this.scale)}, on 0–1)`;
    return [
      ...inner,
      {
        name: 'judge',
        description: this.options.models.length > 1 ? `${what}: the panel's` : what,
        ...(primary ? { primary: true } : {}),
      },
      ...(this.options.models.length > 1
        ? this.options.models.map((m) => ({ name: memberMetric(m), description: `${m}'s verdict, on 0–1` }))
        : []),
    ];
  }

  /**
   * Whether this scorer asks its judge about the case: every case here; a subclass that judges only some (one
   * dataset of free text among others) says which, so that `compare -n` estimates their verdicts alone.
   */
  judges(_kase: Case): boolean {
    return true;
  }

  private rubric(kase: Case): string {
    const r = this.options.rubric;
    return typeof r === 'function' ? r(kase) : r;
  }

  async call(kase: Case, reply: Reply, context: Json, tools?: ScorerTools): Promise<Score> {
    const inner = this.options.inner ? await this.options.inner.call(kase, reply, context, tools) : undefined;
    if (!tools) {
      // Offline (verify grading an expected answer): the helper's scorer alone, the judge's metrics unknown.
      if (!inner) throw new JudgeOffline('the judge grades only in a run, where it is lent a model');
      const none = Object.fromEntries(this.metrics().map((m) => [m.name, null]));
      return { ...inner, metrics: { ...none, ...inner.metrics } };
    }
    const user = judgePrompt({
      input: kase.input,
      reply: reply.raw ?? (reply.output === undefined ? '' : JSON.stringify(reply.output)),
      ...(this.options.reference ? { expected: kase.expected } : {}),
      rubric: this.rubric(kase),
      scale: this.scale,
    });
    const members: Record<string, JudgeVerdict> = {};
    await Promise.all(
      this.options.models.map(async (id) => {
        const samples: VerdictResult[] = await Promise.all(
          Array.from({ length: this.samples }, async (_, i) => {
            try {
              const model = tools.judge(id, i + 1);
              const response = await model.complete({
                system: JUDGE_SYSTEM,
                user,
                json: true,
                jsonSchema: verdictSchema(this.scale),
              });
              return parseVerdict(this.scale, response.text);
            } catch (error) {
              // A call the run will not try again (a 400, its retries spent) is this judge's failure: the panel
              // goes on without it. A pause, a stop or a call worth retrying goes up to the run.
              if (!finalFailure(error)) throw error;
              return { ok: false, reason: `the judge call failed: ${(error as Error).message}`, raw: '' };
            }
          }),
        );
        members[id] = sampleVerdict(this.scale, samples);
      }),
    );
    // In the lineup's order, whatever order the calls ended in.
    const ordered = Object.fromEntries(this.options.models.map((id) => [id, members[id]!]));
    const panel = panelVerdict(this.scale, ordered);
    if (panel.n === 0 && !panel.tie) {
      const why = this.options.models
        .map((id) => {
          const f = members[id]!.failures[0];
          return f ? `${id}: ${f.reason}; raw: ${JSON.stringify(f.raw.slice(0, 200))}` : `${id}: no verdict`;
        })
        .join(' | ');
      throw new JudgeFailed(`judge failure: ${why}`);
    }
    const metrics: Record<string, number | null> = { ...(inner?.metrics ?? {}), judge: panel.value };
    if (this.options.models.length > 1)
      for (const id of this.options.models) metrics[memberMetric(id)] = panel.members[id] ?? null;
    const diagnostics: Record<string, Json> = {
      ...(inner?.diagnostics ?? {}),
      judge: {
        n: panel.n,
        failed: panel.failed,
        ...(panel.tie ? { tie: true } : {}),
        ...(Object.values(members).some((m) => m.unstable)
          ? { unstable: this.options.models.filter((id) => members[id]!.unstable) }
          : {}),
        failures: this.options.models.flatMap((id) =>
          members[id]!.failures.map((f) => ({ model: id, reason: f.reason, raw: f.raw.slice(0, 2000) })),
        ),
        reasoning: Object.fromEntries(this.options.models.map((id) => [id, members[id]!.reasoning])),
      },
    };
    return {
      // With a scorer of its own, the helper's value stays the score (weights mix the judge in); alone, the
      // judge's verdict is it, a tie sitting in the middle.
      value: inner ? inner.value : (panel.value ?? 0.5),
      metrics,
      ...(inner?.outcomes ? { outcomes: inner.outcomes } : {}),
      diagnostics,
    };
  }

  override failed(kase: Case, reply: Reply, context: Json): Score {
    const inner = this.options.inner;
    const base = inner
      ? ((inner as Partial<Scorer>).failed?.(kase, reply, context) ?? failedScore(inner.metrics()))
      : failedScore(this.metrics());
    const metrics = { ...base.metrics };
    for (const m of this.metrics()) if (!(m.name in metrics)) metrics[m.name] = null;
    return { ...base, metrics };
  }

  override verify(kase: Case, context: Json): string[] {
    return this.options.inner?.verify(kase, context) ?? [];
  }

  override summary(kase: Case): string {
    return this.options.inner?.summary(kase) ?? '';
  }
}
