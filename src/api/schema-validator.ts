import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, quote } from '../errors.ts';
import type { Json } from './types.ts';

/** The field types a schema may name. */
export const FIELD_TYPES = ['boolean', 'integer', 'number', 'string', 'enum', 'multi_enum'] as const;

/** One of the field types a schema may name. */
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * One field of an extraction schema as a `schema.json` writes it: its type, the allowed values of an `enum` or
 * `multi_enum` (as `enum`, JSON Schema's word, or `values`; never both), whether null is allowed (default true), and a
 * description for the prompt. Unknown keys are refused, so a typo never silently loosens a check.
 */
export const FieldSpecSchema = z.strictObject({
  type: z.enum(FIELD_TYPES),
  enum: z.array(z.string()).optional(),
  values: z.array(z.string()).optional(),
  nullable: z.boolean().optional(),
  description: z.string().optional(),
});

/** One field of an extraction schema, as written. */
export type FieldSpec = z.infer<typeof FieldSpecSchema>;

/**
 * An extraction schema by field name: a bare type (`"stories": "integer"`) or a full spec
 * (`"urgency": {"type": "enum", "enum": ["emergency", "flexible"], "nullable": false}`).
 */
export type Schema = Record<string, FieldType | FieldSpec>;

/** A field as the validator checks it: its type, its allowed values under one name, and whether null passes. */
export interface CheckedField {
  type: FieldType;
  values?: readonly string[];
  nullable: boolean;
}

const describe = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** Where a field goes wrong: its key path and what is wrong there. */
interface ConfigErrorParts {
  key: string;
  problem: string;
}

function specIssue(name: string, spec: object, error: z.ZodError): ConfigErrorParts {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const known = Object.keys(FieldSpecSchema.shape).join(', ');
    return { key: `${name}.${issue.keys[0]!}`, problem: `unknown key (known: ${known})` };
  }
  const path = issue.path.map(String);
  const value = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], spec);
  if (path[0] === 'type') {
    const problem = `${value === undefined ? 'required' : `unknown type ${quote(value)}`} (known: ${FIELD_TYPES.join(', ')})`;
    return { key: `${name}.type`, problem };
  }
  const problem = `${issue.message.replace(/^Invalid input: /, '')}, got ${quote(value)}`;
  return { key: [name, ...path].join('.'), problem };
}

function checkField(name: string, written: unknown): CheckedField | ConfigErrorParts {
  if (typeof written === 'string') {
    if ((FIELD_TYPES as readonly string[]).includes(written)) return checkField(name, { type: written });
    return { key: name, problem: `unknown type ${quote(written)} (known: ${FIELD_TYPES.join(', ')})` };
  }
  if (written === null || typeof written !== 'object' || Array.isArray(written)) {
    return { key: name, problem: `expected a type name or {"type": ...}, got ${quote(written)}` };
  }
  const parsed = FieldSpecSchema.safeParse(written);
  if (!parsed.success) return specIssue(name, written, parsed.error);
  const spec = parsed.data;
  if (spec.enum && spec.values) {
    const problem = 'has both enum and values; give the allowed values once, as enum (JSON Schema) or values';
    return { key: name, problem };
  }
  const values = spec.enum ?? spec.values;
  const listKey = `${name}.${spec.enum ? 'enum' : 'values'}`;
  const choice = spec.type === 'enum' || spec.type === 'multi_enum';
  if (choice && !values?.length) {
    return {
      key: values ? listKey : name,
      problem: `${spec.type} needs its allowed values in enum (or values)`,
    };
  }
  if (!choice && values) {
    const problem = `allowed values apply to enum and multi_enum only; write "type": "enum" instead of ${quote(spec.type)}`;
    return { key: listKey, problem };
  }
  return { type: spec.type, ...(values ? { values } : {}), nullable: spec.nullable ?? true };
}

/**
 * Checks a schema as written and returns its fields as the validator checks them; the first problem is a ConfigError
 * naming `file` (when given) and the field's key path.
 */
export function checkSchema(schema: unknown, file?: string): Record<string, CheckedField> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new ConfigError(file ?? 'schema', undefined, `expected an object of fields, got ${quote(schema)}`);
  }
  const fields: Record<string, CheckedField> = {};
  for (const [name, written] of Object.entries(schema)) {
    const field = checkField(name, written);
    if ('problem' in field) throw new ConfigError(file ?? 'schema', field.key, field.problem);
    fields[name] = field;
  }
  return fields;
}

/** Reads and checks a `schema.json`: what an adapter gives `FieldScorer`; a problem names the file and the field. */
export function readSchema(file: string): Schema {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(file, undefined, `cannot be read as JSON (${(error as Error).message})`);
  }
  checkSchema(data, file);
  return data as Schema;
}

/** Checks values and whole objects against a schema; use it in `Scorer.verify` and to spot invalid replies. */
export class SchemaValidator {
  readonly fields: Record<string, CheckedField>;

  /** `file` is where the schema came from, for error messages. */
  constructor(schema: Schema, file?: string) {
    this.fields = checkSchema(schema, file);
  }

  /** Whether `value` is allowed for `field` (an unknown field allows nothing). */
  valid(field: string, value: unknown): boolean {
    const spec = this.fields[field];
    if (!spec) return false;
    if (value === null || value === undefined) return spec.nullable;
    switch (spec.type) {
      case 'boolean':
        return typeof value === 'boolean';
      case 'integer':
        return Number.isInteger(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'string':
        return typeof value === 'string';
      case 'enum':
        return typeof value === 'string' && spec.values!.includes(value);
      case 'multi_enum':
        return Array.isArray(value) && value.every((v) => typeof v === 'string' && spec.values!.includes(v));
    }
  }

  /** Every problem with an object: not an object, unknown keys, missing keys, values the schema does not allow. */
  problems(object: Json | undefined): string[] {
    if (object === null || typeof object !== 'object' || Array.isArray(object)) {
      return [`expected an object, got ${describe(object)}`];
    }
    const problems: string[] = [];
    for (const key of Object.keys(object)) {
      if (!(key in this.fields)) problems.push(`${key}: not in the schema`);
    }
    for (const [name, spec] of Object.entries(this.fields)) {
      if (!(name in object)) {
        problems.push(`${name}: missing`);
      } else if (!this.valid(name, object[name])) {
        const allowed = spec.values ? ` (one of ${spec.values.join(', ')})` : '';
        problems.push(`${name}: ${describe(object[name])} is not a valid ${spec.type}${allowed}`);
      }
    }
    return problems;
  }
}
