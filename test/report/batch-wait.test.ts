import { describe, expect, it } from 'vitest';
import { renderBatchWait } from '../../src/report/batch-wait.ts';

const NOW = 1_800_000_000_000;
const at = (secondsAgo: number) => NOW / 1000 - secondsAgo;

describe('renderBatchWait', () => {
  it.each([
    [
      { submittedAt: at(3 * 3600), expiresAt: at(-21 * 3600), done: 1240, total: 2000, round: 1 },
      'waiting for batch b_1 at openai: 1,240/2,000 done, submitted 3 h ago, expires in 21 h',
    ],
    [
      { submittedAt: at(40), done: 0, total: 50, round: 1 },
      'waiting for batch b_1 at openai: 0/50 done, submitted 40 s ago',
    ],
    [
      { submittedAt: at(600), done: 2, total: 3, round: 2 },
      'waiting for batch b_1 at openai: 2/3 done, submitted 10 min ago, round 2',
    ],
    [{ done: 0, total: 1, round: 1 }, 'waiting for batch b_1 at openai: 0/1 done'],
  ])('shows %j', (fields, want) => {
    expect(renderBatchWait({ batchId: 'b_1', provider: 'openai', ...fields }, NOW)).toBe(want);
  });
});
