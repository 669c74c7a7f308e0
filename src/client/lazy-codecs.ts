import { createRequire } from 'node:module';

/** The part of protobufjs (the copy Temporal's SDK uses) that sets up a message type's codecs. */
interface Protobuf {
  Type: { prototype: TypeLike & { setup: Setup } };
  Writer: unknown;
  Reader: unknown;
  util: unknown;
  encoder: Generator;
  decoder: Generator;
  verifier: Generator;
  converter: { fromObject: Generator; toObject: Generator };
  wrappers: Record<string, { fromObject: Codec; toObject: Codec }>;
}
type Codec = (...args: unknown[]) => unknown;
type Generator = (type: TypeLike) => (scope: Record<string, unknown>) => Codec;
type Setup = ((this: TypeLike) => TypeLike) & { lazy?: true };
interface TypeLike {
  fullName: string;
  ctor: unknown;
  fieldsArray: { resolve(): { resolvedType: unknown } }[];
  root?: {
    _needsRecursiveFeatureResolution?: boolean;
    _edition?: string;
    _resolveFeaturesRecursive?: (edition: string) => void;
  };
  _edition?: string;
  [codec: string]: unknown;
}

/** How each of a type's five codecs is generated, as protobufjs's own setup does it. */
const CODECS: Record<string, (pb: Protobuf, type: TypeLike, types: unknown[]) => Codec> = {
  encode: (pb, type, types) => pb.encoder(type)({ Writer: pb.Writer, types, util: pb.util }),
  decode: (pb, type, types) => pb.decoder(type)({ Reader: pb.Reader, types, util: pb.util, C: type.ctor }),
  verify: (pb, type, types) => pb.verifier(type)({ types, util: pb.util }),
  fromObject: (pb, type, types) => pb.converter.fromObject(type)({ types, util: pb.util, C: type.ctor }),
  toObject: (pb, type, types) => pb.converter.toObject(type)({ types, util: pb.util }),
};

/** Puts in `holder[name]` a stand-in that makes the type's codec on its first call, puts it in its place and runs it. */
function makeOnFirstCall(
  pb: Protobuf,
  type: TypeLike,
  types: unknown[],
  holder: TypeLike,
  name: string,
): void {
  holder[name] = function (this: unknown, ...args: unknown[]) {
    const codec = CODECS[name]!(pb, type, types);
    holder[name] = codec;
    return codec.apply(this, args);
  };
}

/**
 * protobufjs writes and compiles five functions for a message type (encode, decode, verify, fromObject, toObject) the
 * first time any one of them is called; Temporal's SDK calls encode and decode of hundreds of types and rarely the
 * others, so most of that code was made for nothing, on the way to a run's first and last tasks. Here each function is
 * made the first time it is called instead — the same generators, the same result, fewer of them. A protobufjs
 * without these parts is left as it is.
 */
export function lazyProtobufCodecs(): void {
  let pb: Protobuf;
  try {
    const sdk = createRequire(import.meta.url).resolve('@temporalio/proto');
    pb = createRequire(sdk)('protobufjs') as Protobuf;
  } catch {
    return;
  }
  const prototype = pb.Type?.prototype;
  if (!prototype || prototype.setup.lazy || typeof pb.converter?.fromObject !== 'function') return;
  const setup: Setup = function setup(this: TypeLike) {
    const root = this.root;
    const edition = root?._needsRecursiveFeatureResolution && (root._edition ?? this._edition);
    if (edition) root._resolveFeaturesRecursive?.(edition);
    const types = this.fieldsArray.map((field) => field.resolve().resolvedType);
    // A well-known type (Any, Timestamp…) converts through its wrapper, over the generated converters.
    const wrapper = pb.wrappers[this.fullName];
    const raw = wrapper ? (Object.create(this) as TypeLike) : this;
    if (wrapper) raw._ctor = this.ctor;
    for (const name of Object.keys(CODECS)) {
      const holder = wrapper && (name === 'fromObject' || name === 'toObject') ? raw : this;
      makeOnFirstCall(pb, this, types, holder, name);
    }
    if (wrapper) {
      this.fromObject = wrapper.fromObject.bind(raw);
      this.toObject = wrapper.toObject.bind(raw);
    }
    return this;
  };
  setup.lazy = true;
  prototype.setup = setup;
}
