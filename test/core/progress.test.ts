import { describe, expect, it } from 'vitest';
import { neverBack, type RunProgress } from '../../src/core/progress.ts';

const at = (done: number, errors = 0): RunProgress => ({
  runId: 'r',
  experiments: [{ id: 'e1', total: 72, done, errors, state: 'running' }],
});

// Never a wrong word (issue 28): at a server kill the live view went from 48/72 to 0/72 and stayed there.
describe('neverBack', () => {
  it.each<[string, [number, number][], [number, number]]>([
    [
      'moving forward',
      [
        [10, 0],
        [48, 2],
      ],
      [48, 2],
    ],
    [
      'a restart answering zeros',
      [
        [48, 2],
        [0, 0],
      ],
      [48, 2],
    ],
    [
      'a recount still behind',
      [
        [48, 2],
        [0, 0],
        [30, 1],
      ],
      [48, 2],
    ],
    [
      'a recount that passes it',
      [
        [48, 2],
        [0, 0],
        [50, 1],
      ],
      [50, 2],
    ],
  ])('%s', (_, polls, [done, errors]) => {
    const shown = new Map<string, { done: number; errors: number }>();
    let last: RunProgress | undefined;
    for (const [d, e] of polls) last = neverBack(shown, at(d, e));
    expect(last!.experiments[0]).toMatchObject({ done, errors, total: 72 });
  });
});
