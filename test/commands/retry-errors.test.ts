import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/core/results.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { stripAnsi } from '../helpers/cli.ts';
import { cannotRetry, retryErrorsHint } from '../../src/session/retry-errors.ts';

/** A run's results with these statuses. */
function run(status: Snapshot['status'], ...statuses: CaseResult['status'][]) {
  const results = statuses.map((s, i) => ({ status: s, caseKey: `d/v/${i}` }) as CaseResult);
  return { runId: 'R', status, results };
}

describe('resume --retry-errors: what it calls again, and the line that offers it', () => {
  it.each([
    ['a completed run with errors', run('completed', 'scored', 'error'), undefined],
    [
      'a completed run without errors',
      run('completed', 'scored', 'scored'),
      'no case of run R ended in an error',
    ],
    ['an aborted run', run('aborted', 'error'), 'run R is aborted, not completed: no case is called again'],
    [
      'a cancelled run',
      run('cancelled', 'scored', 'error'),
      'run R is cancelled, not completed: no case is called again',
    ],
  ])('%s → %s', (_, snapshot, why) => {
    expect(cannotRetry(snapshot)).toBe(why);
  });

  it.each([
    [run('completed', 'scored'), ''],
    [
      run('completed', 'error', 'scored'),
      '1 case ended in an error: llm-evals resume R --retry-errors calls it again',
    ],
    [
      run('completed', 'error', 'error'),
      '2 cases ended in an error: llm-evals resume R --retry-errors calls them again',
    ],
  ])('hint %#', (snapshot, line) => {
    expect(stripAnsi(retryErrorsHint(snapshot))).toBe(line);
  });
});
