import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSchema, SchemaValidator, type Schema } from '../../src/api/schema-validator.ts';
import { ConfigError } from '../../src/errors.ts';
import { TempDirs } from '../helpers/suite-dir.ts';

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

describe('SchemaValidator: enum or values', () => {
  it.each<[string, Schema]>([
    ['values', { s: { type: 'enum', values: ['a', 'b'] } }],
    ['enum, as JSON Schema writes it', { s: { type: 'enum', enum: ['a', 'b'] } }],
  ])('takes the allowed values from %s', (_, schema) => {
    const v = new SchemaValidator(schema);
    expect(v.fields.s).toEqual({ type: 'enum', values: ['a', 'b'], nullable: true });
    expect([v.valid('s', 'a'), v.valid('s', 'c')]).toEqual([true, false]);
  });

  it('checks a multi_enum given with enum', () => {
    const v = new SchemaValidator({ m: { type: 'multi_enum', enum: ['x', 'y'] } });
    expect([v.valid('m', ['y', 'x']), v.valid('m', ['z'])]).toEqual([true, false]);
  });
});

describe('SchemaValidator: a bad schema', () => {
  it.each<[string, unknown, string]>([
    ['an unknown type', { a: 'date' }, 'schema: a: unknown type "date" (known: boolean, integer,'],
    ['an unknown type in a spec', { a: { type: 'date' } }, 'schema: a.type: unknown type "date"'],
    ['a spec without a type', { a: { enum: ['x'] } }, 'schema: a.type: required (known:'],
    ['an enum without values', { a: { type: 'enum' } }, 'schema: a: enum needs its allowed values in enum'],
    [
      'a multi_enum with empty values',
      { a: { type: 'multi_enum', values: [] } },
      'schema: a.values: multi_enum needs its allowed values',
    ],
    [
      'both enum and values',
      { a: { type: 'enum', enum: ['x'], values: ['x'] } },
      'schema: a: has both enum and values; give the allowed values once',
    ],
    [
      'allowed values on a string',
      { a: { type: 'string', enum: ['x'] } },
      'schema: a.enum: allowed values apply to enum and multi_enum only; write "type": "enum"',
    ],
    [
      'a typo in a key',
      { a: { type: 'enum', valeus: ['x'] } },
      'schema: a.valeus: unknown key (known: type,',
    ],
    [
      'a value that is no string',
      { a: { type: 'enum', enum: ['x', 2] } },
      'schema: a.enum.1: expected string',
    ],
    ['a field that is a list', { a: ['x'] }, 'schema: a: expected a type name or {"type": ...}, got ["x"]'],
    ['a list for a schema', ['a'], 'schema: expected an object of fields, got ["a"]'],
  ])('throws a ConfigError for %s', (_, schema, message) => {
    expect(() => new SchemaValidator(schema as Schema)).toThrow(ConfigError);
    expect(() => new SchemaValidator(schema as Schema)).toThrow(message);
  });

  it('names the file it was given', () => {
    const schema: Schema = { urgency: { type: 'enum', enum: ['now'], values: ['now'] } };
    expect(() => new SchemaValidator(schema, 'evals/datasets/leads/schema.json')).toThrow(
      /^evals\/datasets\/leads\/schema\.json: urgency: has both enum and values/,
    );
  });
});

describe('readSchema', () => {
  const dirs = new TempDirs();
  afterAll(() => dirs.removeAll());
  const write = (text: string) => {
    const file = join(dirs.os(), 'schema.json');
    writeFileSync(file, text);
    return file;
  };

  it('returns the schema as written, checked', () => {
    const text = '{"size": {"type": "enum", "enum": ["s", "m"], "description": "the lot"}, "n": "integer"}';
    expect(readSchema(write(text))).toEqual(JSON.parse(text));
  });

  it.each([
    [
      'both enum and values',
      '{"size": {"type": "enum", "enum": ["s"], "values": ["s"]}}',
      /: size: has both enum and values/,
    ],
    ['text that is not JSON', '{"size": ', /: cannot be read as JSON/],
  ])('fails for %s, naming the file', (_, text, message) => {
    const file = write(text);
    const error = (() => {
      try {
        readSchema(file);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).file).toBe(file);
    expect((error as Error).message).toMatch(message);
  });
});
