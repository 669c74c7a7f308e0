import { describe, expect, it } from 'vitest';
import {
  giveBack,
  isComplete,
  isOutstanding,
  lease,
  newQueue,
  releaseOthers,
  retryReturned,
  settle,
  startRetry,
  waiting,
  type CaseQueue,
} from '../../src/core/case-queue.ts';

type Step =
  | ['lease', string, number]
  | ['settle', number, boolean]
  | ['giveBack', number]
  | ['retry', number]
  | ['retryReturned', number]
  | ['release', string | undefined];

function play(total: number, steps: Step[]): { queue: CaseQueue; answers: unknown[] } {
  const queue = newQueue(total);
  const answers = steps.map((step) => {
    switch (step[0]) {
      case 'lease':
        return lease(queue, step[1], step[2]);
      case 'settle':
        return settle(queue, step[1], step[2]);
      case 'giveBack':
        return giveBack(queue, step[1]);
      case 'retry':
        return startRetry(queue, step[1]);
      case 'retryReturned':
        return retryReturned(queue, step[1]);
      case 'release':
        return releaseOthers(queue, step[1]);
    }
  });
  return { queue, answers };
}

describe('the case queue', () => {
  it.each<[string, number, Step[], unknown[], Partial<CaseQueue>]>([
    [
      'leases in order, never past the end',
      3,
      [
        ['lease', 'p:1', 2],
        ['lease', 'p:1', 5],
      ],
      [[0, 1], [2]],
      { cursor: 3 },
    ],
    [
      'counts a result once, an error as an error',
      2,
      [
        ['lease', 'p:1', 2],
        ['settle', 0, true],
        ['settle', 0, false],
      ],
      [[0, 1], true, false],
      { done: 1, errors: 1 },
    ],
    ['refuses a result for a case never handed out', 2, [['settle', 1, false]], [false], { done: 0 }],
    [
      'serves a returned case before new ones',
      4,
      [
        ['lease', 'p:1', 2],
        ['giveBack', 1],
        ['lease', 'p:1', 2],
      ],
      [[0, 1], undefined, [1, 2]],
      { returned: [] },
    ],
    [
      'hands back the leases of an older pool',
      4,
      [
        ['lease', 'p:1', 3],
        ['settle', 0, false],
        ['release', 'p:2'],
      ],
      [[0, 1, 2], true, 2],
      { returned: [1, 2], leases: {} },
    ],
    [
      'keeps the leases of the pool it keeps',
      3,
      [
        ['lease', 'p:1', 1],
        ['lease', 'p:2', 1],
        ['release', 'p:2'],
      ],
      [[0], [1], 1],
      { returned: [0], leases: { 1: 'p:2' } },
    ],
    [
      'accepts a late result of a case already handed back',
      2,
      [
        ['lease', 'p:1', 1],
        ['release', undefined],
        ['settle', 0, false],
      ],
      [[0], 1, true],
      { returned: [], done: 1 },
    ],
    [
      'moves a failed case to the retries and settles it there',
      2,
      [
        ['lease', 'p:1', 1],
        ['retry', 0],
        ['settle', 0, true],
      ],
      [[0], true, true],
      { retrying: [], errors: 1 },
    ],
    [
      'returns a retry whose worker died to the waiting list',
      2,
      [
        ['lease', 'p:1', 1],
        ['retry', 0],
        ['retryReturned', 0],
      ],
      [[0], true, undefined],
      { retrying: [], returned: [0] },
    ],
    ['does not retry a case it does not lease', 2, [['retry', 1]], [false], { retrying: [] }],
  ])('%s', (_, total, steps, answers, expected) => {
    const played = play(total, steps);
    expect(played.answers).toEqual(answers);
    expect(played.queue).toMatchObject(expected);
  });

  it('knows what waits, what is outstanding and when all is done', () => {
    const queue = newQueue(3);
    expect(waiting(queue)).toBe(3);
    lease(queue, 'p:1', 2);
    expect(waiting(queue)).toBe(1);
    expect(isOutstanding(queue, 1)).toBe(true);
    expect(isOutstanding(queue, 2)).toBe(false);
    for (const i of [0, 1]) settle(queue, i, false);
    lease(queue, 'p:1', 1);
    settle(queue, 2, false);
    expect([waiting(queue), isComplete(queue)]).toEqual([0, true]);
  });
});
