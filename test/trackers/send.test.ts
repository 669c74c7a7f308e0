import { describe, expect, it } from 'vitest';
import { fromSnapshot } from '../../src/trackers/from-snapshot.ts';
import { sendExperiment } from '../../src/trackers/send.ts';
import type { Tracker } from '../../src/trackers/types.ts';
import { trackerSnapshot } from './fixture.ts';

/** A tracker that notes each call, and throws at the call named. */
function noting(failAt?: 'start' | 'record' | 'finish', enabled = true): Tracker & { calls: string[] } {
  const calls: string[] = [];
  const maybeFail = (at: string) => {
    if (at === failAt) throw new Error(`${at} broke`);
  };
  return {
    name: 'noting',
    calls,
    enabled: () => enabled,
    // Async like a real tracker's calls, so a throw inside becomes a rejected promise.
    start: (e) => {
      calls.push(`start ${e.experimentId}`);
      return Promise.resolve().then(() => maybeFail('start'));
    },
    record: (r) => {
      calls.push(`record ${r.caseKey}`);
      return Promise.resolve().then(() => maybeFail('record'));
    },
    finish: (e) => {
      calls.push(`finish ${e.experimentId}`);
      return Promise.resolve().then(() => {
        maybeFail('finish');
        return { url: `https://example.test/${e.experimentId}` };
      });
    },
  };
}

describe('sendExperiment', () => {
  const [tracked] = fromSnapshot(trackerSnapshot());

  it('starts, records each case in order, finishes, and returns the page', async () => {
    const tracker = noting();
    expect(await sendExperiment(tracker, tracked!)).toEqual({ url: 'https://example.test/001-north' });
    expect(tracker.calls).toEqual([
      'start 001-north',
      'record north/clear',
      'record north/vague',
      'record north/long/001',
      'finish 001-north',
    ]);
  });

  it('calls nothing on a tracker that is not enabled', async () => {
    const tracker = noting(undefined, false);
    expect(await sendExperiment(tracker, tracked!)).toEqual({});
    expect(tracker.calls).toEqual([]);
  });

  it.each(['start', 'record', 'finish'] as const)('turns a failure in %s into a problem', async (at) => {
    expect(await sendExperiment(noting(at), tracked!)).toEqual({
      problem: { tracker: 'noting', experiment: '001-north', message: `${at} broke` },
    });
  });
});
