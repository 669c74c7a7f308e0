import { Buffer } from 'node:buffer';
import { defaultPayloadConverter, fromPayloadsAtIndex } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { decryptRead } from './codec.ts';

type Payload = temporal.api.common.v1.IPayload;

/** The `encoding` of a payload the default converter wrote as JSON: every payload of ours. */
const JSON_PLAIN = Buffer.from('json/plain');

/**
 * The value at `index` of payloads read from Temporal, as the default payload converter gives it; undefined when
 * there is none. JSON is decoded by Node in one piece: the SDK's own decoder (written for the workflow sandbox) builds
 * each string from pieces of 32 characters, and a report of 200,000 results made about 400 MB of garbage that way.
 */
export function payloadValue<T>(payloads: readonly Payload[] | null | undefined, index = 0): T | undefined {
  const read = payloads?.[index];
  if (!read) return undefined;
  // A run started with the codec: opened with the link's keys, or refused naming the key id it needs.
  const payload = decryptRead(read);
  const encoding = payload.metadata?.encoding;
  const data = payload.data;
  if (encoding && data && JSON_PLAIN.equals(encoding)) {
    return JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as T;
  }
  return fromPayloadsAtIndex<T>(defaultPayloadConverter, 0, [payload]);
}
