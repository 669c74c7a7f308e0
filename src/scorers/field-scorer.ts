import { SchemaValidator, type CheckedField, type Schema } from '../api/schema-validator.ts';
import { Scorer } from '../api/scorer.ts';
import type { Case, Json, Metric, Reply, Score } from '../api/types.ts';

/** How one field of an extraction ends. */
export type FieldOutcome = 'correct' | 'missed' | 'hallucinated' | 'incorrect' | 'invalid';

/**
 * What each outcome is worth: missing a field is the least bad mistake (the form asks again), inventing one is worse
 * (the form believes it), a wrong allowed value worse still, and a value the schema does not allow is worth nothing.
 */
export const FIELD_WORTH: Readonly<Record<FieldOutcome, number>> = {
  correct: 1,
  missed: 0.2,
  hallucinated: 0.15,
  incorrect: 0.1,
  invalid: 0,
};

/** One field's verdict, with what the case wants and what the reply gave. */
export interface FieldVerdict {
  field: string;
  outcome: FieldOutcome;
  want: Json;
  got: Json;
}

/** The field scorer's verdict on one reply: the mean worth, its metrics, outcome counts and the wrong fields. */
export interface FieldScore {
  value: number;
  fields: FieldVerdict[];
  metrics: { score: number; exact: number; hallucinated_rate: number | null; invalid_rate: number | null };
  outcomes: Record<FieldOutcome, number>;
  diagnostics: Record<string, { outcome: FieldOutcome; want: Json; got: Json }>;
}

const asObject = (value: Json | undefined): Record<string, Json> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;

const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Whether a value answers nothing: null, missing, an empty list or blank text. */
function empty(value: Json | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'string' && value.trim() === '';
}

/** Whether two allowed values say the same: lists as sets, text without case or extra spaces, numbers to 1e-9. */
function same(spec: CheckedField, want: Json, got: Json): boolean {
  if (Array.isArray(want) && Array.isArray(got)) {
    const a = new Set(want.map(String));
    const b = new Set(got.map(String));
    return a.size === b.size && [...a].every((v) => b.has(v));
  }
  if (spec.type === 'string' && typeof want === 'string' && typeof got === 'string')
    return normal(want) === normal(got);
  if (typeof want === 'number' && typeof got === 'number') return Math.abs(want - got) < 1e-9;
  return want === got;
}

/** One field's outcome: invalid beats everything, then correct, hallucinated, missed or incorrect. */
export function fieldOutcome(validator: SchemaValidator, field: string, want: Json, got: Json): FieldOutcome {
  if (!validator.valid(field, got)) return 'invalid';
  if (empty(want)) return empty(got) ? 'correct' : 'hallucinated';
  if (empty(got)) return 'missed';
  return same(validator.fields[field]!, want, got) ? 'correct' : 'incorrect';
}

/**
 * Grades an extraction field by field against the schema and the expected answer (pure, in the style of inspect_ai's
 * `_match.py`). A reply that is not an object makes every field invalid (got null); keys outside the schema are ignored.
 */
export function scoreFields(
  schema: Schema | SchemaValidator,
  expected: Json,
  output: Json | undefined,
): FieldScore {
  const validator = schema instanceof SchemaValidator ? schema : new SchemaValidator(schema);
  const want = asObject(expected) ?? {};
  const got = asObject(output);
  const fields: FieldVerdict[] = Object.keys(validator.fields).map((field) => {
    const w = want[field] ?? null;
    const g = got ? (got[field] ?? null) : null;
    return { field, outcome: got ? fieldOutcome(validator, field, w, g) : 'invalid', want: w, got: g };
  });
  const outcomes: Record<FieldOutcome, number> = {
    correct: 0,
    missed: 0,
    hallucinated: 0,
    incorrect: 0,
    invalid: 0,
  };
  for (const f of fields) outcomes[f.outcome]++;
  const n = fields.length;
  const unanswered = fields.filter((f) => empty(f.want)).length;
  const value = n ? fields.reduce((sum, f) => sum + FIELD_WORTH[f.outcome], 0) / n : 1;
  return {
    value,
    fields,
    metrics: {
      score: value,
      exact: outcomes.correct === n ? 1 : 0,
      // Of the fields the text never answers, the share the reply filled anyway; null when there are none.
      hallucinated_rate: unanswered ? outcomes.hallucinated / unanswered : null,
      invalid_rate: n ? outcomes.invalid / n : null,
    },
    outcomes,
    diagnostics: Object.fromEntries(
      fields
        .filter((f) => f.outcome !== 'correct')
        .map((f) => [f.field, { outcome: f.outcome, want: f.want, got: f.got }]),
    ),
  };
}

/** The field scorer's metrics, `score` first and primary. */
export const FIELD_METRICS: readonly Metric[] = [
  {
    name: 'score',
    description: 'Mean worth per field: correct 1, missed 0.2, hallucinated 0.15, incorrect 0.1, invalid 0.',
    primary: true,
  },
  { name: 'exact', description: 'Share of replies with every field correct.' },
  {
    name: 'hallucinated_rate',
    description: 'Of the fields the text never answers, the share the reply filled anyway.',
  },
  {
    name: 'invalid_rate',
    description: 'Share of fields whose value the schema does not allow (or the reply was no object).',
  },
];

/**
 * The built-in scorer for extraction into a schema; give it the schema, or return `{ schema }` from the adapter's
 * `context(case)` when each dataset has its own (a config-only suite names it with no arguments).
 */
export class FieldScorer extends Scorer {
  private readonly validators = new Map<unknown, SchemaValidator>();

  constructor(private readonly schema?: Schema) {
    super();
  }

  metrics(): Metric[] {
    return FIELD_METRICS.map((m) => ({ ...m }));
  }

  call(kase: Case, reply: Reply, context: Json): Score {
    const { value, metrics, outcomes, diagnostics } = scoreFields(
      this.validatorFor(context),
      kase.expected,
      reply.output,
    );
    return { value, metrics, outcomes, diagnostics };
  }

  /** A failed reply answers no field: every field invalid, and no hallucination can be counted (`null`). */
  override failed(kase: Case, _reply: Reply, context: Json): Score {
    const { value, metrics, outcomes, diagnostics } = scoreFields(
      this.validatorFor(context),
      kase.expected,
      undefined,
    );
    return { value, metrics: { ...metrics, hallucinated_rate: null }, outcomes, diagnostics };
  }

  override verify(kase: Case, context: Json): string[] {
    return this.validatorFor(context).problems(kase.expected);
  }

  override summary(kase: Case): string {
    const values = Object.values(asObject(kase.expected) ?? {});
    return `${values.filter((v) => !empty(v)).length}/${values.length} answered`;
  }

  private validatorFor(context: Json): SchemaValidator {
    const schema = this.schema ?? (asObject(asObject(context)?.schema) as Schema | undefined);
    if (!schema) {
      throw new Error(
        "FieldScorer needs a schema: pass one to new FieldScorer(schema), or return { schema } from the adapter's context(case)",
      );
    }
    let validator = this.validators.get(schema);
    if (!validator) this.validators.set(schema, (validator = new SchemaValidator(schema)));
    return validator;
  }
}
