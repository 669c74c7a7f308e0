import { z } from 'zod';

/** A judge's scale: `pass_fail`, or an integer range `a-b` (a < b) such as `1-5`. */
export type Scale = { kind: 'pass_fail' } | { kind: 'range'; min: number; max: number };

/** Reads a scale as the config spells it; `undefined` when it is neither `pass_fail` nor `a-b` with integers a < b. */
export function parseScale(text: string): Scale | undefined {
  if (text === 'pass_fail') return { kind: 'pass_fail' };
  const m = /^(-?\d+)-(-?\d+)$/.exec(text.trim());
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = Number(m[2]);
  return Number.isSafeInteger(min) && Number.isSafeInteger(max) && min < max
    ? { kind: 'range', min, max }
    : undefined;
}

/** The scale as the config spells it, for prompts and messages. */
export function scaleText(scale: Scale): string {
  return scale.kind === 'pass_fail' ? 'pass_fail' : `${scale.min}-${scale.max}`;
}

const nonEmpty = (what: string) => z.string().refine((s) => s.trim() !== '', `${what} is empty`);

/**
 * The `judge:` section of `.llm-evals.config.yml`: one `model` or a `models` panel, a `rubric` (or `rubric_file`,
 * read by the suite loader), the `scale`, whether the case's expected answer is shown (`reference: expected`), and
 * `samples` verdicts per reply.
 */
export const JudgeConfigSchema = z
  .object({
    model: nonEmpty('the judge model').optional(),
    models: z.array(nonEmpty('a judge model')).min(1, 'the panel names no model').optional(),
    rubric: z.string().optional(),
    rubric_file: nonEmpty('rubric_file').optional(),
    scale: z.string().refine((s) => parseScale(s) !== undefined, {
      message: "the scale must be 'pass_fail' or an integer range 'a-b' with a < b, such as '1-5'",
    }),
    reference: z.literal('expected').optional(),
    samples: z.number().int().min(1).max(25).default(1),
  })
  .strict()
  .superRefine((c, ctx) => {
    if ((c.model === undefined) === (c.models === undefined))
      ctx.addIssue({ code: 'custom', path: ['model'], message: 'give exactly one of model or models' });
    if ((c.rubric === undefined) === (c.rubric_file === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['rubric'],
        message: 'give exactly one of rubric or rubric_file',
      });
    else if (c.rubric !== undefined && c.rubric.trim() === '')
      ctx.addIssue({ code: 'custom', path: ['rubric'], message: 'the rubric is empty' });
    if (c.models && new Set(c.models).size !== c.models.length)
      ctx.addIssue({ code: 'custom', path: ['models'], message: 'the panel names a model twice' });
  });
/** The `judge:` section as written. */
export type JudgeConfigInput = z.input<typeof JudgeConfigSchema>;
/** The `judge:` section, checked. */
export type JudgeConfig = z.infer<typeof JudgeConfigSchema>;

/** A judge ready to run: its panel (one model or more), rubric text, scale, reference and samples. */
export interface JudgeSpec {
  models: string[];
  rubric: string;
  scale: Scale;
  reference: boolean;
  samples: number;
}

/** The judge a checked config describes, given the rubric's text (the config's own or its file's). */
export function judgeSpec(config: JudgeConfig, rubric: string): JudgeSpec {
  return {
    models: config.models ?? [config.model!],
    rubric,
    scale: parseScale(config.scale)!,
    reference: config.reference === 'expected',
    samples: config.samples,
  };
}
