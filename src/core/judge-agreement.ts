import { z } from 'zod';

/**
 * One judge's (or the panel's) agreement with people's labels, as the snapshot keeps it: n labelled replies, raw
 * agreement, Cohen's κ (linear-weighted on a scale) with a 95 % interval, the confusion matrix (rows the person's
 * label, columns the judge's) and whether κ is below 0.6.
 */
export const JudgeAgreementSchema = z.object({
  /** A judge model as the lineup names it, or `panel`. */
  judge: z.string(),
  n: z.number(),
  agreement: z.number().nullable(),
  kappa: z.number().nullable(),
  weighted: z.boolean(),
  ci: z.tuple([z.number(), z.number()]).nullable(),
  /** How the interval was made: the asymptotic standard error of Fleiss, Cohen & Everitt (1969). */
  ciMethod: z.literal('asymptotic'),
  categories: z.array(z.string()),
  confusion: z.array(z.array(z.number())),
  warn: z.boolean(),
});
/** One judge's agreement with people's labels. */
export type JudgeAgreement = z.infer<typeof JudgeAgreementSchema>;
