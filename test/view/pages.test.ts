import { describe, expect, it } from 'vitest';
import type { RunState } from '../../src/core/run-state.ts';
import type { RunsFilter } from '../../src/view/model.ts';
import { anyLive, filterQuery, progressHtml } from '../../src/view/pages.ts';
import { countedProgress, savedState } from '../../src/view/progress.ts';
import { replySource } from '../../src/view/case-page.ts';
import { keep } from '../../src/view/keep.ts';
import { caseHref } from '../../src/view/pages.ts';
import { snapshotFixture } from '../report/fixture.ts';

describe('the view’s pure parts', () => {
  const snapshot = snapshotFixture();
  const half = { ...snapshot, results: snapshot.results.filter((r) => r.caseKey.startsWith('north/')) };

  it.each<[string, typeof snapshot, RunState, boolean, string]>([
    ['every result in', snapshot, 'completed', true, 'completed'],
    ['north in, still going', half, 'running', false, 'pending'],
    ['north in, cancelled', half, 'cancelled', true, 'cancelled'],
    ['north in, stopped', half, 'aborted', true, 'stopped'],
  ])('countedProgress, %s', (_, s, state, closed, southState) => {
    const counted = countedProgress(s, state, closed);
    expect(counted.map((e) => e.id)).toEqual(s.experiments.map((e) => e.id));
    const north = counted.filter((e) => s.experiments.find((x) => x.id === e.id)!.dataset === 'north');
    expect(north.every((e) => e.state === 'completed' && e.done === e.total)).toBe(true);
    const south = counted.filter((e) => !north.includes(e));
    expect(south.length).toBeGreaterThan(0);
    expect(south.map((e) => e.state)).toEqual(south.map(() => southState));
    expect(counted.reduce((n, e) => n + e.done, 0)).toBe(s.results.length);
    expect(counted.reduce((n, e) => n + e.errors, 0)).toBe(
      s.results.filter((r) => r.status !== 'scored').length,
    );
  });

  it.each([
    ['partial', 'running'],
    ['completed', 'completed'],
    ['cancelled', 'cancelled'],
  ] as const)('savedState(%s) = %s', (status, state) => {
    expect(savedState(status)).toBe(state);
  });

  it.each<[RunsFilter, string]>([
    [{ page: 0 }, ''],
    [{ page: 2 }, '?page=2'],
    [{ project: '/a b/c', state: 'running', page: 0 }, '?project=%2Fa+b%2Fc&state=running'],
    [
      { suite: 'toy', schedule: 'llm-evals/app-1/nightly', state: 'failed', page: 1 },
      '?suite=toy&schedule=llm-evals%2Fapp-1%2Fnightly&state=failed&page=1',
    ],
  ])('filterQuery(%j) = %j', (filter, query) => {
    expect(filterQuery(filter)).toBe(query);
  });

  it.each<[RunState[], boolean]>([
    [[], false],
    [['completed', 'cancelled'], false],
    [['completed', 'paused'], true],
    [['running'], true],
  ])('anyLive(%j) = %s', (states, live) => {
    expect(anyLive(states.map((state) => ({ state })))).toBe(live);
  });

  it('escapes a case key into its link, and draws progress with no inline style', () => {
    expect(caseHref('/runs/r-1', 'north/a&b "c"')).toBe('/runs/r-1/case?key=north%2Fa%26b%20%22c%22');
    expect(progressHtml(3, 0)).toBe('<progress value="3" max="1"></progress> <span class="count">3/0</span>');
  });

  it.each<[string, Partial<(typeof snapshot.results)[number]>, RegExp | undefined]>([
    ['a call', {}, undefined],
    [
      'all from the cache',
      { cached: { replies: 1, calls: 0, paidUsd: 0 } },
      /^from the reply cache: 1 reply, no call made/,
    ],
    [
      'some from the cache',
      { cached: { replies: 2, calls: 3, paidUsd: 0.0123 } },
      /^from the reply cache: 2 replies, 3 calls made \(\$0\.0123 paid by this run\)/,
    ],
    ['skipped', { skipped: true }, /^not called: the reply cache had no reply/],
    [
      "this run's batch",
      { batch: { calls: 1, ids: ['batch_7'] } },
      /^from batch batch_7 of this run \(at the batch price\)$/,
    ],
    ["this run's batch, its id not kept", { batch: { calls: 1, ids: [] } }, /^from a batch of this run/],
    [
      'the cache, paid by another run',
      { cached: { replies: 1, calls: 0, paidUsd: 0, runs: ['r-0'] } },
      /^from the reply cache \(run r-0\): 1 reply, no call made/,
    ],
    [
      'the cache and a batch of this run',
      { cached: { replies: 1, calls: 1, paidUsd: 0.5 }, batch: { calls: 1, ids: ['b1'] } },
      /^from the reply cache: 1 reply, 1 call made \(\$0\.5000 paid by this run, from batch b1 of this run \(at the batch price\)\)/,
    ],
  ])('replySource: %s', (_, extra, said) => {
    const told = replySource({ ...snapshot.results[0]!, ...extra });
    if (said) expect(told).toMatch(said);
    else expect(told).toBeUndefined();
  });

  it.each<[string, [string, number][], number, string[]]>([
    [
      'under the budget',
      [
        ['a', 10],
        ['b', 10],
      ],
      30,
      ['a', 'b'],
    ],
    [
      'the oldest dropped first',
      [
        ['a', 10],
        ['b', 10],
        ['c', 15],
      ],
      30,
      ['b', 'c'],
    ],
    [
      'the one kept stays, however heavy',
      [
        ['a', 10],
        ['b', 50],
      ],
      30,
      ['b'],
    ],
    [
      'kept again: newest',
      [
        ['a', 10],
        ['b', 10],
        ['a', 10],
        ['c', 10],
      ],
      25,
      ['a', 'c'],
    ],
  ])('keep: %s', (_, values, budget, left) => {
    const kept = new Map<string, number>();
    for (const [key, weight] of values) keep(kept, key, weight, budget, (w) => w);
    expect([...kept.keys()]).toEqual(left);
  });
});
