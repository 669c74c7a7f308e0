import { Buffer } from 'node:buffer';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Client } from '@temporalio/client';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { ConfigError } from '../errors.ts';

/** The setting that holds the codec's keys. */
export const CODEC_KEYS = 'LLM_EVALS_CODEC_KEYS';

/** The `encoding` of a payload this codec encrypted (the name Temporal's encryption samples use). */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** The metadata key that names the key a payload was encrypted with. */
export const KEY_ID_FIELD = 'encryption-key-id';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** One AES-256 key and the id payloads encrypted with it carry. */
export interface CodecKey {
  id: string;
  key: Buffer;
}

/** The keys of `LLM_EVALS_CODEC_KEYS` in their order: the first encrypts, every one decrypts. */
export interface Keyring {
  keys: readonly CodecKey[];
}

/** Thrown when a payload was encrypted with a key the configured list does not hold. */
export class CodecKeyMissing extends Error {
  readonly type = 'CodecKeyMissing';
  readonly exitCode = 2;

  constructor(
    readonly keyId: string,
    /** Whether any keys were given: a list without this one, or no list at all. */
    listed: boolean,
  ) {
    super(
      `${CODEC_KEYS}: this run is encrypted with codec key id "${keyId}", ` +
        (listed
          ? `which ${CODEC_KEYS} does not hold; add that key to the list`
          : 'and it is not set; set it') +
        ' to read the run',
    );
  }
}

/** Thrown when an encrypted payload fails its authentication: changed on the way, or not ours. */
export class CodecPayloadTampered extends Error {
  readonly type = 'CodecPayloadTampered';
  readonly exitCode = 2;

  constructor(readonly keyId: string) {
    super(`a payload encrypted with codec key id "${keyId}" fails its check: it was changed or is not ours`);
  }
}

/** The id a key without one is known by: the first 8 hex digits of its SHA-256, so every process derives the same. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Parses `LLM_EVALS_CODEC_KEYS`: a comma list, newest first, of `id:base64` or bare base64 keys (id derived by
 * {@link keyIdOf}); each key 32 bytes. An unset or blank list is no keyring.
 */
export function parseCodecKeys(text: string | undefined): Keyring | undefined {
  if (!text?.trim()) return undefined;
  const keys = text.split(',').map((entry, index) => {
    const position = `key ${index + 1}`;
    const trimmed = entry.trim();
    const colon = trimmed.indexOf(':');
    const id = colon >= 0 ? trimmed.slice(0, colon).trim() : undefined;
    const encoded = colon >= 0 ? trimmed.slice(colon + 1).trim() : trimmed;
    if (id === '') throw new ConfigError(undefined, CODEC_KEYS, `${position} has an empty id before ":"`);
    // 32 bytes are 43 base64 digits and one "=": anything else is a typo, a hex key or a key of another size.
    const key = /^[A-Za-z0-9+/]{43}=?$/.test(encoded) ? Buffer.from(encoded, 'base64') : undefined;
    if (key?.length !== 32)
      throw new ConfigError(
        undefined,
        CODEC_KEYS,
        `${position}${id ? ` ("${id}")` : ''} is not 32 bytes of base64 (make one with \`openssl rand -base64 32\`)`,
      );
    return { id: id ?? keyIdOf(key), key };
  });
  const ids = keys.map((k) => k.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new ConfigError(undefined, CODEC_KEYS, `key id "${twice}" is listed twice`);
  return { keys };
}

const text = (value: Uint8Array | null | undefined) =>
  value ? Buffer.from(value).toString('utf8') : undefined;

/** The key id an encrypted payload needs, or undefined for a payload this codec did not write. */
export function encryptedWith(payload: Payload): string | undefined {
  if (text(payload.metadata?.encoding) !== ENCRYPTED_ENCODING) return undefined;
  return text(payload.metadata?.[KEY_ID_FIELD]) ?? '';
}

/** Encrypts a whole payload (its metadata too) with `key`, AES-256-GCM, the key id bound in as associated data. */
export function encryptPayload(payload: Payload, key: CodecKey): Payload {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(key.id));
  const plain = temporal.api.common.v1.Payload.encode(payload).finish();
  const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return {
    metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_FIELD]: Buffer.from(key.id) },
    data: sealed,
  };
}

/**
 * The payload `payload` encrypted, or `payload` itself when this codec did not encrypt it (runs started without the
 * codec); throws {@link CodecKeyMissing} when no key of `keyring` has its id, {@link CodecPayloadTampered} when it
 * fails authentication.
 */
export function decryptPayload(payload: Payload, keyring: Keyring | undefined): Payload {
  const id = encryptedWith(payload);
  if (id === undefined) return payload;
  const key = keyring?.keys.find((k) => k.id === id);
  if (!key) throw new CodecKeyMissing(id, Boolean(keyring));
  const data = Buffer.from(payload.data ?? new Uint8Array());
  if (data.length < IV_BYTES + TAG_BYTES) throw new CodecPayloadTampered(id);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(id));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return temporal.api.common.v1.Payload.decode(plain);
  } catch {
    throw new CodecPayloadTampered(id);
  }
}

/**
 * The codec every client, worker and `view` of this process applies: encrypts with the keyring's first key (none:
 * payloads go as they are), decrypts with any of its keys, and passes through payloads it did not write.
 */
export class AesGcmCodec implements PayloadCodec {
  constructor(readonly keyring: Keyring | undefined) {}

  encode(payloads: Payload[]): Promise<Payload[]> {
    const newest = this.keyring?.keys[0];
    return Promise.resolve(newest ? payloads.map((p) => encryptPayload(p, newest)) : payloads);
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(payloads.map((p) => decryptPayload(p, this.keyring)));
  }
}

let processKeyring: Keyring | undefined;

/**
 * Sets the keyring that {@link decryptRead} uses: the history readers decode payloads outside the SDK's data
 * converter (synchronously, a page at a time), so they share the link's keys through here. Called when linking.
 */
export function useKeyring(keyring: Keyring | undefined): void {
  processKeyring = keyring;
}

/** A payload read from a raw history, decrypted with the process's keyring when this codec encrypted it. */
export function decryptRead(payload: Payload): Payload {
  return decryptPayload(payload, processKeyring);
}

/**
 * A codec for visibility listings, which read search attributes only: an encrypted memo, decoded eagerly by the SDK,
 * becomes null rather than failing the whole listing, so runs whose key this process lacks are listed all the same.
 */
export const listingCodec: PayloadCodec = {
  encode: (payloads) => Promise.resolve(payloads),
  decode: (payloads) =>
    Promise.resolve(
      payloads.map((p) =>
        encryptedWith(p) === undefined
          ? p
          : { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('null') },
      ),
    ),
};

/** A client beside `client` (same connection and namespace) whose listings decode with {@link listingCodec}. */
export function listingClient(client: Client): Client {
  return new Client({
    connection: client.connection,
    namespace: client.options.namespace,
    dataConverter: { payloadCodecs: [listingCodec] },
  });
}
