import { z } from 'zod';
import { JudgeConfigSchema } from '../judge/config.ts';
import { TrajectoryConfigSchema } from '../agent/core/trajectory.ts';

/** One value or a non-empty list of them, always a list once parsed. */
const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (value === undefined || Array.isArray(value) ? value : [value]),
    z.array(item).min(1),
  );

/** `{burst, per_minute}`: the first `burst` calls of a run go at once, then `per_minute`, evenly spaced. */
export const RateLimitSchema = z.strictObject({
  burst: z.number().int().min(0),
  per_minute: z.number().positive(),
});

/** A contender's settings as the lineup writes them; effort and temperature may be lists. */
export const SettingsSchema = z.strictObject({
  effort: oneOrMany(z.string().min(1)).optional(),
  temperature: oneOrMany(z.number().min(0).max(2)).optional(),
  max_tokens: z.number().int().positive().optional(),
});

/** One model entry: a bare name or `{model, effort, temperature, max_tokens, rate_limit}`. */
export const ModelEntrySchema = z.preprocess(
  (value) => (typeof value === 'string' ? { model: value } : value),
  SettingsSchema.extend({ model: z.string().min(1), rate_limit: RateLimitSchema.optional() }),
);

/** A vendor under a routing provider such as `openrouter:`. */
export const VendorSchema = z.strictObject({
  rate_limit: RateLimitSchema.optional(),
  models: z.array(ModelEntrySchema),
});

/** The most calls a section's models have in flight at once, across experiments and workers (a local server: 1). */
export const MaxConcurrencySchema = z.number().int().positive();

/** A provider's section: its limits and either vendors (a router) or models (a direct provider). */
export const ProviderSectionSchema = z.strictObject({
  rate_limit: RateLimitSchema.optional(),
  max_concurrency: MaxConcurrencySchema.optional(),
  vendors: z.record(z.string(), VendorSchema).optional(),
  models: z.array(ModelEntrySchema).optional(),
});

/** Prices as a lineup writes them: dollars per million tokens of input and of output. */
export const PricesSchema = z.strictObject({
  input: z.number().min(0),
  output: z.number().min(0),
});

/** A model entry of an endpoint section: a model entry that may state its own prices. */
export const EndpointModelEntrySchema = z.preprocess(
  (value) => (typeof value === 'string' ? { model: value } : value),
  SettingsSchema.extend({
    model: z.string().min(1),
    rate_limit: RateLimitSchema.optional(),
    prices: PricesSchema.optional(),
  }),
);

/** A variable's name, never its value: the key itself stays out of the lineup file. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A section declaring an OpenAI-compatible endpoint: any new name with a `base_url`, ids `<name>/<model>`. */
export const EndpointSectionSchema = z.strictObject({
  base_url: z.url({ protocol: /^https?$/ }),
  api_key_env: z.string().regex(ENV_NAME).optional(),
  prices: PricesSchema.optional(),
  rate_limit: RateLimitSchema.optional(),
  max_concurrency: MaxConcurrencySchema.optional(),
  models: z.array(EndpointModelEntrySchema).optional(),
  /** The endpoint serves OpenAI's Batch API: `compare --batch` sends its calls as one batch per experiment. */
  batch: z.boolean().optional(),
  /** The share a batch's reply costs less than a call (default 0.5, OpenAI's). */
  batch_discount: z.number().min(0).max(1).optional(),
});

/** The known request types: what an adapter can send. */
export const REQUEST_TYPES = ['prompt', 'typesafe'] as const;

/** The lineup file's fixed keys; provider and tracker sections are checked against the registries. */
export const ConfigSchema = z.strictObject({
  project: z.string().optional(),
  request_types: z.array(z.enum(REQUEST_TYPES)).min(1),
  import: oneOrMany(z.string().min(1)).optional(),
  adapter: z.string().min(1).optional(),
  scorer: z.string().min(1).optional(),
  defaults: SettingsSchema.extend({ parallelism: z.number().int().positive().optional() }).optional(),
  results: z
    .strictObject({
      autosave: z.boolean().optional(),
      destination: z.string().min(1).optional(),
      temp_dir: z.string().min(1).optional(),
      display: z.enum(['none', 'tui', 'browser', 'both']).optional(),
    })
    .optional(),
  tracker: z.string().min(1).optional(),
  /** A model that grades each reply against a rubric (issue 45): its metric `judge` joins the scorer's. */
  judge: JudgeConfigSchema.optional(),
  /** Scores each reply's tool calls against `expected.tool_calls` (issue 46); the final answer by the scorer or judge. */
  trajectory: TrajectoryConfigSchema.optional(),
  weighted_score: z.strictObject({ weights: z.record(z.string(), z.number()) }).optional(),
  errors: z
    .strictObject({
      abort_after: z.strictObject({
        total: z.number().int().positive(),
        percent: z.number().min(0).max(100).optional(),
      }),
    })
    .optional(),
});

/** The fixed part of a parsed lineup file. */
export type ConfigFile = z.infer<typeof ConfigSchema>;
/** A provider's section as written. */
export type ProviderSection = z.infer<typeof ProviderSectionSchema>;
/** A model entry as written. */
export type ModelEntry = z.infer<typeof ModelEntrySchema>;
/** A rate limit as written. */
export type RateLimitEntry = z.infer<typeof RateLimitSchema>;
/** An endpoint section as written. */
export type EndpointSection = z.infer<typeof EndpointSectionSchema>;
