import { describe, expect, it } from 'vitest';
import {
  batchCancelWords,
  batchesToCancel,
  type BatchAt,
  type BatchCancelled,
  type SentBatch,
} from '../../src/core/batch-cancel.ts';

const at = (batchId: string, provider = 'openai'): BatchAt => ({ provider, batchId });
const sent = (batchId: string, fields: Partial<SentBatch> = {}): SentBatch => ({
  ...at(batchId),
  received: false,
  cancelled: false,
  ...fields,
});

describe('the batches cancel cancels itself', () => {
  it.each<{ name: string; closed: boolean; sent: SentBatch[]; expected: BatchAt[] }>([
    { name: 'none sent', closed: true, sent: [], expected: [] },
    { name: 'one waited on, the run closed', closed: true, sent: [sent('b1')], expected: [at('b1')] },
    { name: 'the run still open: its workers cancel it', closed: false, sent: [sent('b1')], expected: [] },
    {
      name: 'read back (a later round waits): only the later one',
      closed: true,
      sent: [sent('b1', { received: true, lastStatus: 'expired' }), sent('b2')],
      expected: [at('b2')],
    },
    { name: 'cancelled by a worker', closed: true, sent: [sent('b1', { cancelled: true })], expected: [] },
    {
      name: 'seen ended at the last look, not yet read',
      closed: true,
      sent: [sent('b1', { lastStatus: 'completed' })],
      expected: [],
    },
    {
      name: 'seen running at the last look',
      closed: true,
      sent: [sent('b1', { lastStatus: 'in_progress' })],
      expected: [at('b1')],
    },
    {
      name: "several experiments' batches at two providers",
      closed: true,
      sent: [sent('b1'), { ...sent('b2'), provider: 'lan' }, sent('b3', { cancelled: true })],
      expected: [at('b1'), at('b2', 'lan')],
    },
    {
      name: 'the same batch twice: once',
      closed: true,
      sent: [sent('b1'), sent('b1')],
      expected: [at('b1')],
    },
  ])('$name', ({ closed, sent, expected }) => {
    expect(batchesToCancel(closed, sent)).toEqual(expected);
  });
});

describe('what cancel says of the batches it cancelled', () => {
  const again = '`llm-evals cancel R1`';
  it.each<{ name: string; outcomes: BatchCancelled[]; clauses: string[]; problems: string[] }>([
    { name: 'none', outcomes: [], clauses: [], problems: [] },
    {
      name: 'cancelled (the provider says cancelling)',
      outcomes: [{ ...at('b1'), status: 'cancelling' }],
      clauses: ['cancelled batch b1 at openai'],
      problems: [],
    },
    {
      name: 'ended before the ask',
      outcomes: [{ ...at('b1'), status: 'completed' }],
      clauses: ['batch b1 at openai had already ended (completed)'],
      problems: [],
    },
    {
      name: 'no key here',
      outcomes: [{ ...at('b1'), missing: 'key', envVar: 'OPENAI_API_KEY' }],
      clauses: [],
      problems: [
        'batch b1 at openai still runs, and is paid for: OPENAI_API_KEY is not set here, so cancel could not ' +
          `ask openai; run ${again} where OPENAI_API_KEY is set, or cancel it in openai's console`,
      ],
    },
    {
      name: 'no such endpoint here',
      outcomes: [{ ...at('b1', 'lan'), missing: 'provider' }],
      clauses: [],
      problems: [
        'batch b1 at lan still runs, and is paid for: this project defines no endpoint lan; run ' +
          `${again} in the project whose config defines it, or cancel it in lan's console`,
      ],
    },
    {
      name: 'the endpoint here has no batch API',
      outcomes: [{ ...at('b1'), missing: 'batchApi' }],
      clauses: [],
      problems: [
        'batch b1 at openai still runs, and is paid for: the endpoint openai has no `batch: true` here; run ' +
          `${again} in the project whose config defines it, or cancel it in openai's console`,
      ],
    },
    {
      name: 'the provider unreachable',
      outcomes: [{ ...at('b1'), failed: 'POST /batches/b1/cancel failed: fetch failed' }],
      clauses: [],
      problems: [
        'batch b1 at openai still runs, and is paid for: cancelling it failed (POST /batches/b1/cancel failed: ' +
          `fetch failed); run ${again} again`,
      ],
    },
    {
      name: 'one cancelled, one left: each said',
      outcomes: [
        { ...at('b1'), status: 'cancelled' },
        { ...at('b2'), failed: 'boom' },
      ],
      clauses: ['cancelled batch b1 at openai'],
      problems: [
        `batch b2 at openai still runs, and is paid for: cancelling it failed (boom); run ${again} again`,
      ],
    },
  ])('$name', ({ outcomes, clauses, problems }) => {
    expect(batchCancelWords('R1', outcomes)).toEqual({ clauses, problems });
  });
});
