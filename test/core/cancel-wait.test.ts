import { describe, expect, it } from 'vitest';
import {
  CANCEL_GRACE_MS,
  CLOSED_EXPERIMENT,
  HANDOFF_MS,
  inFlightBy,
  lookAtCancel,
  POLLED_WITHIN_MS,
  SERVED_WITHIN_MS,
  waitedCalls,
  waitedClauses,
  WORKFLOW_TASK,
  type PendingWork,
  type WaitedExperiment,
} from '../../src/core/cancel-wait.ts';

const NOW = 1_000_000;
const pool = (calls: number, seenAgo = 1000): PendingWork => ({
  type: 'runCases',
  started: true,
  seenAt: NOW - seenAgo,
  calls,
});

describe('a cancelled run: wait for its worker or end it', () => {
  it.each<{
    name: string;
    pending: PendingWork[];
    runClosed?: boolean;
    polls?: number[];
    waited: number;
    served: boolean;
    calls: number;
    next: string;
  }>([
    {
      name: 'nothing pending, within the grace',
      pending: [],
      waited: 2000,
      served: false,
      calls: 0,
      next: 'wait',
    },
    {
      name: 'nothing pending, past the grace',
      pending: [],
      waited: CANCEL_GRACE_MS,
      served: false,
      calls: 0,
      next: 'terminate',
    },
    {
      name: 'a pool heartbeating, long past the grace: its calls are waited for',
      pending: [pool(2)],
      waited: 10 * CANCEL_GRACE_MS,
      served: true,
      calls: 2,
      next: 'wait',
    },
    {
      name: 'pools and a retried call add up',
      pending: [pool(2), pool(1), { type: 'runCase', started: true, seenAt: NOW }],
      waited: 0,
      served: true,
      calls: 4,
      next: 'wait',
    },
    {
      name: 'a pool whose worker died (no heartbeat for longer than a live one leaves)',
      pending: [pool(3, SERVED_WITHIN_MS + 1)],
      waited: CANCEL_GRACE_MS,
      served: false,
      calls: 0,
      next: 'terminate',
    },
    {
      name: 'scheduled, no worker took it',
      pending: [{ type: 'runCases', started: false, seenAt: NOW }],
      waited: CANCEL_GRACE_MS,
      served: false,
      calls: 0,
      next: 'terminate',
    },
    {
      name: 'a pool that never heartbeat, just started',
      pending: [{ type: 'runCases', started: true, seenAt: NOW - 100 }],
      waited: CANCEL_GRACE_MS,
      served: true,
      calls: 0,
      next: 'wait',
    },
    {
      name: 'a tracker sending: served, but no call',
      pending: [{ type: 'track', started: true, seenAt: NOW }],
      waited: CANCEL_GRACE_MS,
      served: true,
      calls: 0,
      next: 'wait',
    },
    {
      name: 'started but never seen',
      pending: [{ type: 'runCase', started: true }],
      waited: CANCEL_GRACE_MS,
      served: false,
      calls: 0,
      next: 'terminate',
    },
    {
      name: "the pool reported and ended, its experiment's next workflow task not yet taken: the worker closes it",
      pending: [{ type: WORKFLOW_TASK, started: false, seenAt: NOW - HANDOFF_MS }],
      waited: CANCEL_GRACE_MS + 5000,
      served: true,
      calls: 0,
      next: 'wait',
    },
    {
      name: 'an experiment closed, its run not yet told: the worker closes the run next',
      pending: [{ type: CLOSED_EXPERIMENT, started: false, seenAt: NOW - 1000 }],
      waited: CANCEL_GRACE_MS + 5000,
      served: true,
      calls: 0,
      next: 'wait',
    },
    {
      name: 'the run closed before cancel heard of it: its worker closed it, nothing is left to end',
      pending: [],
      runClosed: true,
      waited: CANCEL_GRACE_MS + 3000,
      served: false,
      calls: 0,
      next: 'closed',
    },
    {
      name: 'no worker ever polled its task queue (started with --no-worker): ended on the first look',
      pending: [{ type: WORKFLOW_TASK, started: false, seenAt: NOW - 2000 }],
      polls: [],
      waited: 2000,
      served: false,
      calls: 0,
      next: 'terminate',
    },
    {
      name: 'the last poll is older than a live worker leaves: nothing can take its tasks',
      pending: [
        { type: 'runCases', started: false, seenAt: NOW - 1000 },
        { type: CLOSED_EXPERIMENT, started: false, seenAt: NOW - 1000 },
      ],
      polls: [NOW - POLLED_WITHIN_MS - 1],
      waited: 2000,
      served: false,
      calls: 0,
      next: 'terminate',
    },
    {
      name: 'nothing pending, no poller: no grace',
      pending: [],
      polls: [],
      waited: 0,
      served: false,
      calls: 0,
      next: 'terminate',
    },
    {
      name: 'a worker polled 3 s ago (alive, or just died): the grace still applies',
      pending: [],
      polls: [NOW - POLLED_WITHIN_MS - 1, NOW - 3000],
      waited: 2000,
      served: false,
      calls: 0,
      next: 'wait',
    },
    {
      name: 'an idle live worker, its long poll a minute old: its task is waited for',
      pending: [{ type: WORKFLOW_TASK, started: false, seenAt: NOW - 1000 }],
      polls: [NOW - 65_000],
      waited: CANCEL_GRACE_MS + 5000,
      served: true,
      calls: 0,
      next: 'wait',
    },
    {
      name: 'a pool heartbeating though Temporal lists no poller (a partitioned queue): its calls are waited for',
      pending: [pool(2)],
      polls: [],
      waited: 2000,
      served: true,
      calls: 2,
      next: 'wait',
    },
  ])('$name', ({ pending, runClosed, polls, waited, served, calls, next }) => {
    expect(lookAtCancel(pending, NOW, waited, CANCEL_GRACE_MS, runClosed, polls)).toEqual({
      served,
      calls,
      next,
    });
  });
});

describe('what became of the calls a cancel waited for', () => {
  it.each<{ name: string; experiments: WaitedExperiment[]; said: string[] }>([
    {
      name: 'its experiment closed cancelled: its pool reported them',
      experiments: [{ calls: 2, closed: 'CANCELLED' }],
      said: ['waited for 2 calls in flight, now recorded'],
    },
    {
      name: 'its experiment failed: the worker stopped answering, the pool timed out, the reply was lost',
      experiments: [{ calls: 1, closed: 'FAILED' }],
      said: [
        '1 call in flight was lost: their worker stopped answering, its pool timed out, and Temporal does not try a ' +
          'cancelled pool again',
      ],
    },
    {
      name: 'one of each, and one that completed as the cancel came',
      experiments: [
        { calls: 1, closed: 'CANCELLED' },
        { calls: 2, closed: 'TIMED_OUT' },
        { calls: 1, closed: 'COMPLETED' },
      ],
      said: [
        'waited for 2 calls in flight, now recorded',
        '2 calls in flight were lost: their worker stopped answering, its pool timed out, and Temporal does not try ' +
          'a cancelled pool again',
      ],
    },
    {
      name: 'how it closed is not known: recorded is not said',
      experiments: [{ calls: 3 }],
      said: ['waited for 3 calls in flight'],
    },
    {
      name: 'nothing in flight: nothing said',
      experiments: [],
      said: [],
    },
  ])('$name', ({ experiments, said }) => {
    expect(waitedClauses(waitedCalls(experiments))).toEqual(said);
  });

  it('counts the calls of each workflow a worker is seen serving, not those of one gone quiet', () => {
    const pending: PendingWork[] = [
      { ...pool(2), workflowId: 'a' },
      { type: 'runCase', started: true, seenAt: NOW, workflowId: 'a' },
      { ...pool(1, SERVED_WITHIN_MS + 1), workflowId: 'b' },
      { type: 'runCases', started: false, seenAt: NOW, calls: 4, workflowId: 'c' },
      { type: 'track', started: true, seenAt: NOW, workflowId: 'd' },
    ];
    expect(Object.fromEntries(inFlightBy(pending, NOW))).toEqual({ a: 3 });
  });
});
