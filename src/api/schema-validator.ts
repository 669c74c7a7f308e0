import type { Json } from './types.ts';

/** The field types a schema may name. */
export type FieldType = 'boolean' | 'integer' | 'number' | 'string' | 'enum' | 'multi_enum';

/** One field of an extraction schema: its type, allowed values for enums, and whether null is allowed. */
export interface FieldSpec {
  type: FieldType;
  values?: readonly string[];
  nullable?: boolean;
}

/** A schema given as a bare type (`'integer'`) or a full spec, by field name. */
export type Schema = Record<string, FieldType | FieldSpec>;

const FIELD_TYPES: readonly string[] = ['boolean', 'integer', 'number', 'string', 'enum', 'multi_enum'];

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Checks values and whole objects against a schema; use it in `Scorer.verify` and to spot invalid replies. */
export class SchemaValidator {
  readonly fields: Record<string, FieldSpec>;

  constructor(schema: Schema) {
    this.fields = {};
    for (const [name, spec] of Object.entries(schema)) {
      const full = typeof spec === 'string' ? { type: spec } : spec;
      if (!FIELD_TYPES.includes(full.type))
        throw new Error(`schema field ${name}: unknown type ${describe(full.type)}`);
      if ((full.type === 'enum' || full.type === 'multi_enum') && !full.values?.length) {
        throw new Error(`schema field ${name}: ${full.type} needs values`);
      }
      this.fields[name] = { nullable: true, ...full };
    }
  }

  /** Whether `value` is allowed for `field` (an unknown field allows nothing). */
  valid(field: string, value: unknown): boolean {
    const spec = this.fields[field];
    if (!spec) return false;
    if (value === null || value === undefined) return spec.nullable !== false;
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
