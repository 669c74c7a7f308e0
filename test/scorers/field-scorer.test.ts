import { describe, expect, it } from 'vitest';
import type { Schema } from '../../src/api/schema-validator.ts';
import type { Case, Json } from '../../src/api/types.ts';
import { FieldScorer, scoreFields, type FieldOutcome } from '../../src/scorers/field-scorer.ts';

const TAX: Schema = {
  filing_status: {
    type: 'enum',
    values: ['single', 'married_jointly', 'married_separately', 'head_of_household'],
  },
  dependents: 'integer',
  self_employed: 'boolean',
  irs_letter: 'boolean',
  forms: { type: 'multi_enum', values: ['w2', '1099', 'k1'] },
  employer: 'string',
  refund: 'number',
};

const kase = (expected: Json): Case => ({
  id: 'vague',
  key: 'tax/vague',
  dataset: 'tax',
  variant: 'vague',
  input: 'Got married in June…',
  expected,
  path: '/nowhere',
  metadata: {},
});

describe('scoreFields: one field', () => {
  it.each<[string, string, Json, Json, FieldOutcome]>([
    ['the same enum value', 'filing_status', 'single', 'single', 'correct'],
    ['both null', 'filing_status', null, null, 'correct'],
    ['a key left out counts as null', 'filing_status', null, undefined as unknown as Json, 'correct'],
    ['an answer left empty', 'dependents', 2, null, 'missed'],
    ['an answer where the text gave none', 'filing_status', null, 'married_jointly', 'hallucinated'],
    ['another allowed value', 'filing_status', 'single', 'married_jointly', 'incorrect'],
    ['a value off the list', 'filing_status', 'single', 'married', 'invalid'],
    ['a wrong type', 'self_employed', true, 'yes', 'invalid'],
    ['a fraction for an integer', 'dependents', 2, 2.5, 'invalid'],
    ['an invalid value where none was due', 'self_employed', null, 'yes', 'invalid'],
    ['a list in another order', 'forms', ['w2', '1099'], ['1099', 'w2'], 'correct'],
    ['a list missing one', 'forms', ['w2', '1099'], ['w2'], 'incorrect'],
    ['an empty list where none was due', 'forms', null, [], 'correct'],
    ['an empty list for an answer', 'forms', ['w2'], [], 'missed'],
    ['text with other case and spaces', 'employer', 'Acme  Roofing', ' acme roofing', 'correct'],
    ['blank text for an answer', 'employer', 'Acme', '  ', 'missed'],
    ['other text', 'employer', 'Acme', 'Apex', 'incorrect'],
    ['a number within rounding', 'refund', 0.3, 0.1 + 0.2, 'correct'],
  ])('%s', (_, field, want, got, outcome) => {
    const result = scoreFields(TAX, { [field]: want }, { [field]: got });
    expect(result.fields.find((f) => f.field === field)!.outcome).toBe(outcome);
  });
});

describe('scoreFields: a whole reply', () => {
  const expected = {
    filing_status: null,
    dependents: null,
    self_employed: true,
    irs_letter: true,
    forms: null,
    employer: null,
    refund: null,
  };

  it.each<
    [string, Json | undefined, number, Record<string, number | null>, Partial<Record<FieldOutcome, number>>]
  >([
    [
      'all correct',
      expected,
      1,
      { score: 1, exact: 1, hallucinated_rate: 0, invalid_rate: 0 },
      { correct: 7 },
    ],
    [
      "the blog's married_jointly",
      { ...expected, filing_status: 'married_jointly' },
      6.15 / 7,
      { score: 6.15 / 7, exact: 0, hallucinated_rate: 0.2, invalid_rate: 0 },
      { correct: 6, hallucinated: 1 },
    ],
    [
      'one missed, one invalid',
      { ...expected, self_employed: null, irs_letter: 'yes' },
      5.2 / 7,
      { score: 5.2 / 7, exact: 0, hallucinated_rate: 0, invalid_rate: 1 / 7 },
      { correct: 5, missed: 1, invalid: 1 },
    ],
    [
      'not an object: every field invalid',
      'Sure! Here is the JSON',
      0,
      { score: 0, exact: 0, hallucinated_rate: 0, invalid_rate: 1 },
      { invalid: 7 },
    ],
    ['no output at all', undefined, 0, { score: 0, invalid_rate: 1 }, { invalid: 7 }],
  ])('%s', (_, output, value, metrics, outcomes) => {
    const result = scoreFields(TAX, expected, output);
    expect(result.value).toBeCloseTo(value, 10);
    for (const [name, want] of Object.entries(metrics))
      expect(result.metrics[name as 'score']).toBeCloseTo(want!, 10);
    expect(result.outcomes).toMatchObject(outcomes);
  });

  it('names each wrong field with want and got, and no right one', () => {
    const result = scoreFields(TAX, expected, {
      ...expected,
      filing_status: 'married_jointly',
      self_employed: null,
    });
    expect(result.diagnostics).toEqual({
      filing_status: { outcome: 'hallucinated', want: null, got: 'married_jointly' },
      self_employed: { outcome: 'missed', want: true, got: null },
    });
  });

  it('has no hallucination rate when the text answers every field', () => {
    expect(scoreFields({ a: 'boolean' }, { a: true }, { a: true }).metrics.hallucinated_rate).toBeNull();
  });

  it('ignores keys outside the schema', () => {
    expect(scoreFields({ a: 'boolean' }, { a: true }, { a: true, extra: 1 }).value).toBe(1);
  });
});

describe('FieldScorer', () => {
  const expected = { filing_status: 'single', dependents: 0, self_employed: null };
  const schema: Schema = {
    filing_status: TAX.filing_status!,
    dependents: 'integer',
    self_employed: 'boolean',
  };

  it.each<[string, FieldScorer, Json]>([
    ['with the schema given', new FieldScorer(schema), {}],
    ["with the schema from the adapter's context", new FieldScorer(), { schema: schema as unknown as Json }],
  ])('scores %s', (_, scorer, context) => {
    const score = scorer.call(kase(expected), { output: { ...expected, dependents: 3 } }, context);
    expect(score.value).toBeCloseTo(2.1 / 3, 10);
    expect(score.metrics).toMatchObject({ exact: 0, invalid_rate: 0 });
    expect(score.diagnostics).toEqual({ dependents: { outcome: 'incorrect', want: 0, got: 3 } });
    expect(scorer.verify(kase(expected), context)).toEqual([]);
  });

  it('declares score (primary), exact, hallucinated_rate and invalid_rate', () => {
    expect(new FieldScorer(schema).metrics().map((m) => [m.name, m.primary ?? false])).toEqual([
      ['score', true],
      ['exact', false],
      ['hallucinated_rate', false],
      ['invalid_rate', false],
    ]);
  });

  it('verifies the expected answer against the schema', () => {
    expect(new FieldScorer(schema).verify(kase({ ...expected, dependents: 'two' }), {})).toEqual([
      'dependents: "two" is not a valid integer',
    ]);
  });

  it('summarises how many fields the case answers', () => {
    expect(new FieldScorer(schema).summary(kase(expected))).toBe('2/3 answered');
  });

  it('says where the schema comes from when it has none', () => {
    expect(() => new FieldScorer().call(kase(expected), { output: {} }, {})).toThrow(/needs a schema/);
  });
});
