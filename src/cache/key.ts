import { createHash } from 'node:crypto';

/** What a reply depends on: the provider, the model with every setting it sends, the request, and the repeat. */
export interface ReplyKeyParts {
  provider: string;
  /** Where the provider sends it (its endpoint), when it says: one provider name on two servers is two models. */
  scope?: string;
  /** The model as the adapter got it: id, name and sampling settings; functions (its `complete`) are left out. */
  model: object;
  /** The request the adapter built (messages, JSON mode and whatever else it sends). */
  request: object;
  /** Which of `--repeat N` passes asks (absent without repeats), so each repeat keeps a sample of its own. */
  repeat?: number;
  /** The id of a tool call of the request's reply: its key holds the tool's result instead of a reply. */
  tool?: string;
}

/** JSON with object keys sorted and functions and `undefined` left out, so equal requests give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const fields = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`);
  return `{${fields.join(',')}}`;
}

/**
 * The cache key of a call: a sha256 of what determines its reply. It hashes the request, never a credential: a
 * provider's key lives in the provider, which is not part of it.
 */
export function replyKey(parts: ReplyKeyParts): string {
  const text = canonicalJson({ v: 1, ...parts });
  return createHash('sha256').update(text).digest('hex');
}
