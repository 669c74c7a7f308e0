import type { BatchWait } from '../core/progress.ts';

/** `3 h`, `12 min`, `40 s`: a span a user reads at a glance. */
function span(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 5400) return `${Math.round(s / 3600)} h`;
  if (s >= 90) return `${Math.round(s / 60)} min`;
  return `${s} s`;
}

/**
 * What an experiment waits on in a `--batch` run, at `now` (ms): `waiting for batch batch_… at openai: 1,240/2,000
 * done, submitted 3 h ago, expires in 21 h`.
 */
export function renderBatchWait(wait: BatchWait, now: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const parts = [
    `waiting for batch ${wait.batchId} at ${wait.provider}: ${count(wait.done)}/${count(wait.total)} done`,
  ];
  if (wait.submittedAt !== undefined) parts.push(`submitted ${span(now / 1000 - wait.submittedAt)} ago`);
  if (wait.expiresAt !== undefined) parts.push(`expires in ${span(wait.expiresAt - now / 1000)}`);
  if (wait.round > 1) parts.push(`round ${wait.round}`);
  return parts.join(', ');
}
