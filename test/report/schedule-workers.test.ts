import { describe, expect, it } from 'vitest';
import { workersLine, type ScheduleShow } from '../../src/report/schedule-text.ts';
import { stripAnsi } from '../../src/report/text-width.ts';

const now = new Date('2026-12-02T12:00:00Z');
const ago = (s: number) => new Date(now.getTime() - s * 1000);
const show = (seen: [string, number][]) =>
  ({
    schedule: { taskQueue: 'llm-evals-toy' },
    workers: seen.map(([identity, s]) => ({ identity, lastSeen: ago(s) })),
  }) as unknown as ScheduleShow;

// Never a wrong word (issue 28): `schedule show` counted workers that exited up to 2 minutes ago as polling.
describe('workersLine', () => {
  it.each<[string, [string, number][], string]>([
    ['one polling', [['w1', 5]], 'workers:  1 polling llm-evals-toy: w1 (5s ago)'],
    [
      'one polling, one quiet for 100 s',
      [
        ['w1', 5],
        ['w2', 100],
      ],
      'workers:  1 polling llm-evals-toy: w1 (5s ago); 1 quiet since, perhaps exited: w2 (1m40s ago)',
    ],
    [
      'only one quiet',
      [['w2', 100]],
      'workers:  0 polling llm-evals-toy; 1 quiet since, perhaps exited: w2 (1m40s ago)',
    ],
  ])('%s', (_, seen, line) => {
    expect(stripAnsi(workersLine(show(seen), now))).toBe(line);
  });

  it('warns when none polled in the last 2 minutes', () => {
    expect(stripAnsi(workersLine(show([['w1', 130]]), now))).toMatch(
      /^workers: {2}none has polled llm-evals-toy in the last 2m/,
    );
  });
});
