import {
  Adapter,
  Scorer,
  type Case,
  type Json,
  type Metric,
  type Model,
  type Reply,
  type Score,
} from 'llm-evals';

/** The fields each case's expected.json gives, in the order the prompt names them. */
export const FIELDS = ['name', 'age', 'city'] as const;

const PROMPT = [
  "Extract the person's name, age and city from the text.",
  'Reply with only a JSON object: {"name": string, "age": number or null, "city": string or null}.',
  'The city is where the person lives now; use null for what the text does not say.',
].join(' ');

type Fields = Record<string, Json>;

const asFields = (value: Json | undefined): Fields | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;

/** Asks the model for the fields as JSON and parses the reply; anything but a JSON object is a failed reply. */
export class ExtractAdapter extends Adapter {
  async call(kase: Case, model: Model): Promise<Reply> {
    const response = await model.complete({ system: PROMPT, user: kase.input.trim(), json: true });
    const raw = response.text;
    try {
      const output = asFields(JSON.parse(raw) as Json);
      if (output) return { output, raw, usage: response.usage };
    } catch {
      // Falls through: not JSON at all.
    }
    return { error: `not a JSON object: ${raw.slice(0, 60)}`, raw, usage: response.usage };
  }
}

/** Small models quote numbers and vary case: compare `"34"` as 34 and `"lisbon"` as "Lisbon". */
function normalise(value: Json | undefined): Json {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    const text = value.trim();
    return /^\d+$/.test(text) ? Number(text) : text.toLowerCase();
  }
  return value;
}

/** Grades each of the three fields: right or wrong, after normalising. */
export class FieldScorer extends Scorer {
  metrics(): Metric[] {
    return [
      { name: 'fields', description: 'Share of the three fields the reply got right.', primary: true },
      { name: 'exact', description: '1 when all three fields are right.' },
    ];
  }

  call(kase: Case, reply: Reply): Score {
    const want = asFields(kase.expected) ?? {};
    const got = asFields(reply.output) ?? {};
    const wrong = FIELDS.filter(
      (f) => JSON.stringify(normalise(got[f])) !== JSON.stringify(normalise(want[f])),
    );
    const share = (FIELDS.length - wrong.length) / FIELDS.length;
    return {
      value: share,
      metrics: { fields: share, exact: wrong.length === 0 ? 1 : 0 },
      outcomes: { right: FIELDS.length - wrong.length, wrong: wrong.length },
      diagnostics: Object.fromEntries(wrong.map((f) => [f, { want: want[f] ?? null, got: got[f] ?? null }])),
    };
  }

  override verify(kase: Case): string[] {
    const want = asFields(kase.expected);
    if (!want) return ['expected.json is not an object'];
    return FIELDS.filter((f) => !(f in want)).map((f) => `expected.json has no "${f}"`);
  }

  override summary(kase: Case): string {
    const want = asFields(kase.expected) ?? {};
    return `${FIELDS.filter((f) => want[f] !== null).length}/${FIELDS.length} stated`;
  }
}
