import { createRequire } from 'node:module';
import type * as Protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { lazyProtobufCodecs } from '../../src/client/lazy-codecs.ts';

// The protobufjs Temporal's SDK uses: the copy the patch changes.
const require = createRequire(import.meta.url);
const pb = createRequire(require.resolve('@temporalio/proto'))('protobufjs') as typeof Protobuf;

const SCHEMA = {
  nested: {
    test: {
      nested: {
        Inner: { fields: { n: { type: 'int32', id: 1 }, tags: { rule: 'repeated', type: 'string', id: 2 } } },
        Outer: {
          oneofs: { choice: { oneof: ['word', 'count'] } },
          fields: {
            inner: { type: 'Inner', id: 1 },
            any: { type: 'google.protobuf.Any', id: 2 },
            sizes: { keyType: 'string', type: 'int64', id: 3 },
            word: { type: 'string', id: 4 },
            count: { type: 'uint32', id: 5 },
            kind: { type: 'Kind', id: 6 },
          },
        },
        Kind: { values: { KIND_UNSPECIFIED: 0, KIND_BIG: 1 } },
      },
    },
  },
};

/** A fresh root of the schema (with Google's well-known types), so each set of codecs is made anew. */
function outerType() {
  const root = pb.Root.fromJSON(pb.common.get('google/protobuf/any.proto')!);
  root.addJSON(SCHEMA.nested);
  return { root, Outer: root.lookupType('test.Outer'), Inner: root.lookupType('test.Inner') };
}

/** Everything the five codecs of a type answer for the same inputs. */
function exercise(types: ReturnType<typeof outerType>) {
  const { Outer, Inner } = types;
  const plain = {
    inner: { n: 7, tags: ['a', 'b'] },
    any: { '@type': 'type.googleapis.com/test.Inner', n: 3, tags: ['x'] },
    sizes: { small: '2', large: '9007199254740993' },
    count: 4,
    kind: 'KIND_BIG',
  };
  const message = Outer.fromObject(plain);
  const bytes = Outer.encode(message).finish();
  const decoded = Outer.decode(bytes);
  return {
    bytes: Buffer.from(bytes).toString('hex'),
    back: Outer.toObject(decoded, { longs: String, enums: String, defaults: true, oneofs: true }),
    innerBytes: Buffer.from(Inner.encode({ n: 1, tags: ['z'] }).finish()).toString('hex'),
    valid: Outer.verify({ inner: { n: 7, tags: ['a'] }, count: 4, kind: 1 }),
    invalid: Outer.verify({ count: 'many' }),
  };
}

/** How many codec functions protobufjs generates while `work` runs. */
function generated(work: () => void): number {
  const util = pb.util as unknown as { codegen: (...args: unknown[]) => unknown };
  const original = util.codegen;
  let count = 0;
  util.codegen = (...args: unknown[]) => {
    count++;
    return original(...args);
  };
  try {
    work();
  } finally {
    util.codegen = original;
  }
  return count;
}

describe('lazyProtobufCodecs', () => {
  it('makes each codec when it is first called, and the codecs answer as protobufjs made them', () => {
    const eagerTypes = outerType();
    // protobufjs as it comes: the first encode makes the type's message class and all five of its codecs.
    expect(generated(() => eagerTypes.Inner.encode({ n: 1 }))).toBe(6);
    const eager = exercise(eagerTypes);
    lazyProtobufCodecs();
    lazyProtobufCodecs(); // a second call changes nothing
    const types = outerType();
    expect(generated(() => types.Inner.encode({ n: 1 }))).toBe(1);
    expect(generated(() => types.Inner.encode({ n: 2 }))).toBe(0);
    // Decoding makes the decoder and the class it decodes into.
    expect(generated(() => types.Inner.decode(types.Inner.encode({ n: 3 }).finish()))).toBe(2);
    const lazy = exercise(types);
    expect(lazy).toEqual(eager);
    expect(lazy.back).toMatchObject({ inner: { n: 7, tags: ['a', 'b'] }, count: 4, kind: 'KIND_BIG' });
    expect(lazy.back.any).toMatchObject({ type_url: 'type.googleapis.com/test.Inner' });
    expect(lazy.valid).toBeNull();
    expect(lazy.invalid).toMatch(/count/);
  });
});
