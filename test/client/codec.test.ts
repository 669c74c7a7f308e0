import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import {
  AesGcmCodec,
  CodecKeyMissing,
  CodecPayloadTampered,
  decryptPayload,
  encryptedWith,
  keyIdOf,
  parseCodecKeys,
} from '../../src/client/codec.ts';

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const b64 = (key: Buffer) => key.toString('base64');
const value = { case: 'MARKER-in-a-case', reply: 'héllo' };
const plain = (): Payload => defaultPayloadConverter.toPayload(value);
const read = (payload: Payload) => defaultPayloadConverter.fromPayload(payload);

describe('parseCodecKeys', () => {
  it.each([
    ['unset', undefined, undefined],
    ['blank', '  ', undefined],
    ['one bare key: its id derived from its hash', b64(OLD), [keyIdOf(OLD)]],
    ['ids given, newest first', `k2:${b64(NEW)}, k1:${b64(OLD)}`, ['k2', 'k1']],
    ['mixed', `k2:${b64(NEW)},${b64(OLD)}`, ['k2', keyIdOf(OLD)]],
    ['without padding', b64(OLD).replace('=', ''), [keyIdOf(OLD)]],
  ])('%s', (_, text, ids) => {
    expect(parseCodecKeys(text)?.keys.map((k) => k.id)).toEqual(ids);
  });

  it.each([
    ['16 bytes', `${b64(NEW)},${b64(randomBytes(16))}`, 'key 2 is not 32 bytes of base64'],
    ['hex', randomBytes(32).toString('hex'), 'key 1 is not 32 bytes of base64'],
    ['not base64', `a:${'!'.repeat(44)}`, 'key 1 ("a") is not 32 bytes of base64'],
    ['empty entry', `${b64(NEW)},`, 'key 2 is not 32 bytes of base64'],
    ['empty id', `:${b64(NEW)}`, 'key 1 has an empty id'],
    ['an id twice', `a:${b64(NEW)},a:${b64(OLD)}`, 'key id "a" is listed twice'],
  ])('refuses %s, naming the setting and the position', (_, text, message) => {
    expect(() => parseCodecKeys(text)).toThrow(`LLM_EVALS_CODEC_KEYS: ${message}`);
    expect(() => parseCodecKeys(text)).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe('AesGcmCodec', () => {
  const rotated = parseCodecKeys(`new:${b64(NEW)},old:${b64(OLD)}`);
  const before = parseCodecKeys(`old:${b64(OLD)}`);

  it('round trip: the payload comes back whole, and nothing of it is in clear on the way', async () => {
    const codec = new AesGcmCodec(rotated);
    const [sealed] = await codec.encode([plain()]);
    expect(encryptedWith(sealed!)).toBe('new');
    expect(Buffer.from(sealed!.data!).includes('MARKER')).toBe(false);
    expect(Buffer.from(sealed!.data!).includes('json/plain')).toBe(false);
    const [opened] = await codec.decode([sealed!]);
    expect(read(opened!)).toEqual(value);
  });

  it.each([
    ['the newest key encrypts, an old key still decrypts what it wrote', before, rotated, value],
    ['a payload without the codec metadata passes through', undefined, rotated, value],
    ['no keys: encodes nothing, decodes clear payloads', undefined, undefined, value],
  ])('%s', async (_, writer, reader, expected) => {
    const [sealed] = await new AesGcmCodec(writer).encode([plain()]);
    const [opened] = await new AesGcmCodec(reader).decode([sealed!]);
    expect(read(opened!)).toEqual(expected);
  });

  it.each([
    ['a list without its key', `other:${b64(NEW)}`, CodecKeyMissing],
    ['no list at all', undefined, CodecKeyMissing],
    ['a wrong key under the same id', `old:${b64(NEW)}`, CodecPayloadTampered],
  ])('%s: refused, naming the key id it needs', async (_, keys, refusal) => {
    const [sealed] = await new AesGcmCodec(before).encode([plain()]);
    const ring = parseCodecKeys(keys);
    expect(() => decryptPayload(sealed!, ring)).toThrow(refusal);
    expect(() => decryptPayload(sealed!, ring)).toThrow('"old"');
    if (refusal === CodecKeyMissing)
      expect(() => decryptPayload(sealed!, ring)).toThrow(ring ? 'does not hold' : 'it is not set');
  });

  it.each([
    ['a flipped byte of the ciphertext', (data: Buffer) => data.fill(data[20]! ^ 1, 20, 21)],
    ['a flipped byte of the tag', (data: Buffer) => data.fill(data.at(-1)! ^ 1, data.length - 1)],
    ['a cut payload', (data: Buffer) => data.subarray(0, 10)],
  ])('refuses a tampered payload: %s', async (_, tamper) => {
    const [sealed] = await new AesGcmCodec(before).encode([plain()]);
    const data = tamper(Buffer.from(sealed!.data!));
    expect(() => decryptPayload({ ...sealed!, data }, before)).toThrow(CodecPayloadTampered);
  });

  it('a changed key id (another key named for it) is refused, not decoded', async () => {
    const [sealed] = await new AesGcmCodec(before).encode([plain()]);
    const renamed = {
      ...sealed!,
      metadata: { ...sealed!.metadata, 'encryption-key-id': Buffer.from('new') },
    };
    expect(() => decryptPayload(renamed, parseCodecKeys(`new:${b64(OLD)}`))).toThrow(CodecPayloadTampered);
  });
});
