import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { payloadValue } from '../../src/client/payload-value.ts';

/** Payloads as a history page brings them: encoded together, then decoded, each payload's data a view into the page. */
function throughTheWire(values: unknown[]): temporal.api.common.v1.IPayload[] {
  const { Payloads } = temporal.api.common.v1;
  const bytes = Payloads.encode({
    payloads: values.map((v) => defaultPayloadConverter.toPayload(v)),
  }).finish();
  // Bytes at an offset in a larger buffer, as a page of a gRPC reply is.
  const page = new Uint8Array(bytes.length + 64);
  page.set(bytes, 64);
  return Payloads.decode(page.subarray(64)).payloads;
}

describe('payloadValue', () => {
  it.each([
    ['an object with text in every width', { reply: 'réponse ✓ 😀', n: 1.5, list: [null, true, 'x'] }],
    ['a string', 'plain'],
    ['a number', 42],
    ['null', null],
  ])('gives back %s as the SDK converter does', (_name, value) => {
    const payloads = throughTheWire([value, 'second']);
    expect(payloads[0]!.data!.byteOffset).toBeGreaterThan(0);
    expect(payloadValue(payloads)).toEqual(value);
    expect(payloadValue(payloads)).toEqual(defaultPayloadConverter.fromPayload(payloads[0]!));
    expect(payloadValue(payloads, 1)).toBe('second');
  });

  it('leaves payloads of other encodings to the SDK: bytes and undefined', () => {
    const [bytes, nothing] = throughTheWire([new Uint8Array([1, 2, 3]), undefined]);
    expect(payloadValue([bytes!])).toEqual(new Uint8Array([1, 2, 3]));
    expect(payloadValue([nothing!])).toBeUndefined();
  });

  it('gives undefined where there is no payload', () => {
    expect(payloadValue(undefined)).toBeUndefined();
    expect(payloadValue(null)).toBeUndefined();
    expect(payloadValue(throughTheWire(['only']), 1)).toBeUndefined();
  });
});
