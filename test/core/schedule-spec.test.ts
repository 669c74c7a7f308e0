import { describe, expect, it } from 'vitest';
import {
  catchupWindowFor,
  formatEvery,
  intervalOffset,
  parseEvery,
  SCHEDULE_NAME,
  scheduleIdFor,
  scheduleIdPrefix,
  servesProject,
  workerIdentity,
} from '../../src/core/schedule-spec.ts';
import { scheduledRunId } from '../../src/core/run-input.ts';

describe('--every durations', () => {
  it.each<[string, number | undefined]>([
    ['2s', 2000],
    ['1w', 604_800_000],
    ['1h30m', 5_400_000],
    [' 12h ', 43_200_000],
    ['0s', undefined],
    ['1x', undefined],
    ['1.5h', undefined],
    ['', undefined],
    ['weekly', undefined],
  ])('%j is %s ms', (text, ms) => {
    expect(parseEvery(text)).toBe(ms);
  });

  it.each([
    [2000, '2s'],
    [604_800_000, '1w'],
    [129_600_000, '1d12h'],
    [500, '500ms'],
  ])('%d ms is written %s', (ms, text) => {
    expect(formatEvery(ms)).toBe(text);
  });
});

describe('the catch-up window, set on purpose', () => {
  it.each<[number | undefined, number]>([
    [2000, 60_000],
    [3_600_000, 3_600_000],
    [604_800_000, 86_400_000],
    [undefined, 86_400_000],
  ])('period %s ms: %d ms', (period, window) => {
    expect(catchupWindowFor(period)).toBe(window);
  });
});

describe("a schedule's id", () => {
  it('carries the project folder and name, and tells two folders of one name apart', () => {
    expect(scheduleIdFor('/home/me/app', 'nightly')).toMatch(/^llm-evals\/app-[0-9a-f]{8}\/nightly$/);
    expect(scheduleIdPrefix('/home/me/app')).not.toBe(scheduleIdPrefix('/srv/app'));
    expect(scheduleIdFor('/home/me/my app', 'x')).toMatch(/^llm-evals\/my_app-/);
  });

  it.each([
    ['/home/me/app', '/home/me/app', true],
    ['/home/me/app', '/home/me/app-2', false],
    ['/home/me/app', '/srv/app', false],
    ['/home/me/app', '/home/me', false],
  ])("a worker serving %s is listed for %s's schedules: %s", (served, project, listed) => {
    const identity = workerIdentity(4242, 'box', served);
    expect(identity).toMatch(/^4242@box app-[0-9a-f]{8}$/);
    expect(servesProject(identity, project)).toBe(listed);
    // A worker of an earlier version (its identity names no project) is nobody's.
    expect(servesProject('4242@box', project)).toBe(false);
  });

  it.each([
    ['nightly', true],
    ['weekly.v2_a-b', true],
    ['-x', false],
    ['a/b', false],
    ['', false],
    ['x'.repeat(64), false],
  ])('%j is a name: %s', (name, ok) => {
    expect(SCHEDULE_NAME.test(name)).toBe(ok);
  });

  it("a scheduled run's id has the fire's time and the end of the workflow's run id", () => {
    const at = new Date(Date.UTC(2025, 0, 6, 3, 0, 0));
    expect(scheduledRunId(at, '0193a1b2-aaaa-7bbb-8ccc-1234567890ab')).toBe('20250106-030000-90ab');
  });
});

describe('the offset of an --every schedule', () => {
  const week = parseEvery('1w')!;
  const day = parseEvery('1d')!;
  it.each([
    // 2025-01-06 is a Monday: the week's fires fall on Mondays at 09:30 UTC, not on Thursdays at midnight.
    ['2025-01-06T09:30:00.000Z', week, '2025-01-13T09:30:00.000Z'],
    ['2025-01-06T09:30:00.750Z', week, '2025-01-13T09:30:00.000Z'],
    ['2025-01-06T09:30:00.000Z', day, '2025-01-07T09:30:00.000Z'],
    ['1970-01-01T00:00:00.000Z', week, '1970-01-08T00:00:00.000Z'],
  ])('created at %s, every %i ms: the next fire is %s', (created, every, next) => {
    const offset = intervalOffset(every, new Date(created));
    // Temporal fires where (t - offset) is a whole number of periods since the epoch: the first such t after creation.
    const createdMs = Math.floor(Date.parse(created) / 1000) * 1000;
    const fire = Math.floor((createdMs - offset) / every) * every + offset + every;
    expect(new Date(fire).toISOString()).toBe(next);
  });
});
