import { describe, expect, it } from 'vitest';
import { SchemaValidator, type Schema } from '../../src/api/schema-validator.ts';

const SCHEMA: Schema = {
  married: 'boolean',
  dependents: 'integer',
  income: 'number',
  note: 'string',
  filing_status: { type: 'enum', values: ['single', 'married_jointly', 'married_separately'] },
  forms: { type: 'multi_enum', values: ['w2', '1099', 'k1'] },
  name: { type: 'string', nullable: false },
  state: { type: 'enum', values: ['CA', 'NY'], nullable: false },
};

const validator = new SchemaValidator(SCHEMA);

describe('SchemaValidator.valid', () => {
  it.each([
    ['married', true, true],
    ['married', false, true],
    ['married', 'true', false],
    ['married', 1, false],
    ['dependents', 2, true],
    ['dependents', 0, true],
    ['dependents', -1, true],
    ['dependents', 2.5, false],
    ['dependents', '2', false],
    ['income', 52000.5, true],
    ['income', 3, true],
    ['income', Number.NaN, false],
    ['income', Number.POSITIVE_INFINITY, false],
    ['income', '52000', false],
    ['note', 'anything', true],
    ['note', '', true],
    ['note', 4, false],
    ['filing_status', 'single', true],
    ['filing_status', 'married_jointly', true],
    ['filing_status', 'Single', false],
    ['filing_status', 'head_of_household', false],
    ['filing_status', ['single'], false],
    ['forms', ['w2', '1099'], true],
    ['forms', [], true],
    ['forms', ['w2', 'w9'], false],
    ['forms', 'w2', false],
    ['forms', [1], false],
  ])('%s: %j → %s', (field, value, ok) => {
    expect(validator.valid(field, value)).toBe(ok);
  });

  it.each([
    ['married', null, true],
    ['dependents', undefined, true],
    ['filing_status', null, true],
    ['forms', null, true],
    ['name', null, false],
    ['name', undefined, false],
    ['state', null, false],
  ])('nullable: %s %s → %s', (field, value, ok) => {
    expect(validator.valid(field, value)).toBe(ok);
  });

  it('allows nothing for a field the schema does not name', () => {
    expect(validator.valid('unknown', null)).toBe(false);
    expect(validator.valid('unknown', 'x')).toBe(false);
  });

  it('fills the full spec of bare types, nullable by default', () => {
    expect(validator.fields.dependents).toEqual({ type: 'integer', nullable: true });
    expect(validator.fields.name).toEqual({ type: 'string', nullable: false });
  });
});

describe('SchemaValidator.problems', () => {
  const small = new SchemaValidator({
    status: { type: 'enum', values: ['a', 'b'] },
    count: 'integer',
    tags: { type: 'multi_enum', values: ['x', 'y'] },
  });

  it.each([
    ['a valid object', { status: 'a', count: 1, tags: ['x'] }, []],
    ['nulls where nullable', { status: null, count: null, tags: null }, []],
    ['not an object: array', [1], ['expected an object, got [1]']],
    ['not an object: string', 'a', ['expected an object, got "a"']],
    ['not an object: null', null, ['expected an object, got null']],
    ['not an object: undefined', undefined, ['expected an object, got undefined']],
    ['an unknown key', { status: 'a', count: 1, tags: [], extra: 1 }, ['extra: not in the schema']],
    ['a missing key', { status: 'a', tags: [] }, ['count: missing']],
    [
      'an enum value off the list',
      { status: 'c', count: 1, tags: [] },
      ['status: "c" is not a valid enum (one of a, b)'],
    ],
    [
      'a multi_enum value off the list',
      { status: 'a', count: 1, tags: ['x', 'z'] },
      ['tags: ["x","z"] is not a valid multi_enum (one of x, y)'],
    ],
    ['a wrong type', { status: 'a', count: 1.5, tags: [] }, ['count: 1.5 is not a valid integer']],
    [
      'several problems, unknown keys first',
      { count: 'many', other: true },
      [
        'other: not in the schema',
        'status: missing',
        'count: "many" is not a valid integer',
        'tags: missing',
      ],
    ],
  ])('%s', (_, object, problems) => {
    expect(small.problems(object as never)).toEqual(problems);
  });
});

describe('SchemaValidator: a bad schema', () => {
  it.each([
    ['an unknown type', { a: 'date' as never }, 'schema field a: unknown type "date"'],
    ['an enum without values', { a: { type: 'enum' as const } }, 'schema field a: enum needs values'],
    [
      'a multi_enum with empty values',
      { a: { type: 'multi_enum' as const, values: [] } },
      'schema field a: multi_enum needs values',
    ],
  ])('throws for %s', (_, schema: Schema, message) => {
    expect(() => new SchemaValidator(schema)).toThrow(message);
  });
});
