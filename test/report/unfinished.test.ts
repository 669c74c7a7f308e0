import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { unfinishedHeadline, unfinishedVerdict } from '../../src/report/unfinished.ts';
import { snapshotFixture } from './fixture.ts';

/** The fixture with its status set and the results of the south dataset's experiments dropped. */
function withoutSouth(status: Snapshot['status']): Snapshot {
  const s = snapshotFixture();
  const south = new Set(s.experiments.filter((e) => e.dataset === 'south').map((e) => e.id));
  return { ...s, status, results: s.results.filter((r) => !south.has(r.experimentId)) };
}

const planned = snapshotFixture().results.length;
const done = withoutSouth('cancelled').results.length;
const ids = (s: Snapshot, dataset: string) =>
  new Set(s.experiments.filter((e) => e.dataset === dataset).map((e) => e.id));

describe('what an unfinished run says at the top and in its verdicts', () => {
  it.each<[Snapshot['status'], string | undefined]>([
    ['completed', undefined],
    ['regressed', undefined],
    ['cancelled', `Run 20261130-120000-test was cancelled: ${done} of ${planned} case results.`],
    ['aborted', `Run 20261130-120000-test was aborted: ${done} of ${planned} case results.`],
    ['failed', `Run 20261130-120000-test failed: ${done} of ${planned} case results.`],
    ['partial', `Run 20261130-120000-test is still going (partial): ${done} of ${planned} case results.`],
  ])('%s: %s', (status, headline) => {
    const s = withoutSouth(status);
    if (headline === undefined) {
      expect(unfinishedHeadline(s)).toBeUndefined();
      expect(unfinishedVerdict(s)).toBe('');
    } else {
      expect(unfinishedHeadline(s)).toMatch(new RegExp(`^${headline.replace(/[().]/g, '\\$&')} `));
      expect(unfinishedVerdict(s)).toContain(`(on ${done} of ${planned} planned results: the run `);
    }
  });

  it('adds nothing to the verdict of a dataset whose cases all finished, and counts the one that did not', () => {
    const s = withoutSouth('cancelled');
    expect(unfinishedVerdict(s, ids(s, 'north'))).toBe('');
    const south = s.experiments
      .filter((e) => e.dataset === 'south')
      .reduce((n, e) => n + e.caseKeys.length, 0);
    expect(unfinishedVerdict(s, ids(s, 'south'))).toBe(
      ` (on 0 of ${south} planned results: the run was cancelled)`,
    );
  });
});
