import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Where the tests that keep secrets out (secrets.test.ts, tls.test.ts) look for them: files a run left and the
// histories Temporal keeps.

/** Every file under `root`, recursively. */
export function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((name) => join(root, name))
    .filter((file) => statSync(file).isFile());
}

/** A history as text: every string in it, and every byte field (payloads, failure details) decoded, so a secret inside any shows. */
export function historyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
  if (value && typeof value === 'object') return Object.values(value).map(historyText).join('\n');
  return '';
}
