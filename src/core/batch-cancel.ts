import { BATCH_ENDED } from './batch.ts';

// A `--batch` run's experiments cancel their provider's batch when they are cancelled, but only a worker runs that
// cancel. When `cancel RUN` finds no worker and Temporal ends the run, or a worker could not reach the provider, the
// batch would go on at the provider, and be paid for: the command then cancels it itself, from its own process, with
// the key of its own environment. These rules decide which batches it cancels and what it says of each.

/** A batch at a provider: the endpoint's name in the lineup and the batch's id there. */
export interface BatchAt {
  provider: string;
  batchId: string;
}

/** A batch an experiment sent, as its history shows it: whether its replies were read, or a worker cancelled it. */
export interface SentBatch extends BatchAt {
  received: boolean;
  cancelled: boolean;
  /** Its status at the last look the history recorded (`in_progress`, `completed`…); none before the first look. */
  lastStatus?: string;
}

/**
 * The batches the command cancels itself, once the run has closed (`closed`): those sent and neither read back,
 * cancelled by a worker, nor seen ended; each once. While the run is open its workers cancel them, as it closes.
 */
export function batchesToCancel(closed: boolean, sent: readonly SentBatch[]): BatchAt[] {
  if (!closed) return [];
  const seen = new Set<string>();
  return sent.flatMap(({ provider, batchId, received, cancelled, lastStatus }) => {
    const name = `${provider} ${batchId}`;
    if (received || cancelled || (lastStatus && BATCH_ENDED.includes(lastStatus)) || seen.has(name))
      return [];
    seen.add(name);
    return [{ provider, batchId }];
  });
}

/**
 * What came of the command's cancel of one batch: the provider's status after it, or why it could not ask: no
 * provider of that name in this project (`provider`), one without a batch API here (`batchApi`), the endpoint's key
 * not set here (`envVar`), or the provider's refusal or silence (`failed`).
 */
export type BatchCancelled = BatchAt &
  (
    | { status: string }
    | { missing: 'provider' | 'batchApi' }
    | { missing: 'key'; envVar: string }
    | { failed: string }
  );

/** What the command says: clauses after its line about the run, and a line for each batch left running. */
export interface BatchCancelWords {
  clauses: string[];
  problems: string[];
}

/**
 * What the command says of the batches it cancelled, for the run `runId`: `cancelled batch B at P` (or that it had
 * ended meanwhile) as clauses of its line, and, for a batch it could not cancel, one line naming the batch and the
 * endpoint, why, and what to do: it still runs at the provider, and is paid for.
 */
export function batchCancelWords(runId: string, outcomes: readonly BatchCancelled[]): BatchCancelWords {
  const clauses: string[] = [];
  const problems: string[] = [];
  const again = `llm-evals cancel ${runId}`;
  for (const outcome of outcomes) {
    const batch = `batch ${outcome.batchId} at ${outcome.provider}`;
    if ('status' in outcome) {
      clauses.push(
        ['cancelling', 'cancelled'].includes(outcome.status)
          ? `cancelled ${batch}`
          : `${batch} had already ended (${outcome.status})`,
      );
      continue;
    }
    const left = `${batch} still runs, and is paid for`;
    if ('failed' in outcome)
      problems.push(`${left}: cancelling it failed (${outcome.failed}); run \`${again}\` again`);
    else if (outcome.missing === 'key')
      problems.push(
        `${left}: ${outcome.envVar} is not set here, so cancel could not ask ${outcome.provider}; run \`${again}\` ` +
          `where ${outcome.envVar} is set, or cancel it in ${outcome.provider}'s console`,
      );
    else
      problems.push(
        `${left}: ${
          outcome.missing === 'provider'
            ? `this project defines no endpoint ${outcome.provider}`
            : `the endpoint ${outcome.provider} has no \`batch: true\` here`
        }; run \`${again}\` in the project whose config defines it, or cancel it in ${outcome.provider}'s console`,
      );
  }
  return { clauses, problems };
}
