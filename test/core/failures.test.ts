import { describe, expect, it } from 'vitest';
import { failureReason, summarizeFailures } from '../../src/core/failures.ts';
import type { Contender } from '../../src/core/matrix.ts';
import type { CaseResult } from '../../src/core/results.ts';

const contender = (id: string): Contender => ({
  key: `acme:${id} effort=default`,
  id,
  provider: 'acme',
  model: id.split('/')[1]!,
  effort: 'default',
  temperature: null,
  maxTokens: null,
  limits: [],
});

const result = (experimentId: string, caseKey: string, fields: Partial<CaseResult>): CaseResult => ({
  experimentId,
  caseKey,
  attempts: 1,
  status: 'scored',
  score: 1,
  metrics: {},
  outcomes: {},
  diagnostics: {},
  usage: { inputTokens: null, outputTokens: null, costUsd: null },
  latency: null,
  duration: 0,
  waited: 0,
  startedAt: '',
  finishedAt: '',
  ...fields,
});

describe('failureReason: what a failed case is grouped under', () => {
  it.each([
    [
      'drops the provider and id the contender names',
      'error',
      'acme acme/x: HTTP 404: model not found',
      'HTTP 404: model not found',
    ],
    [
      'puts a multi-line error on one line',
      'error',
      'acme acme/x: HTTP 500:\n<html>\n</html>',
      'HTTP 500: <html> </html>',
    ],
    ["keeps a reply error's head, not the reply", 'reply_error', 'not JSON: {"name": "To', 'not JSON'],
    [
      'keeps the limit of a cut reply',
      'reply_error',
      'cut at max_tokens 80: not JSON: {"na',
      'cut at max_tokens 80: not JSON',
    ],
    ['names a failure without a message', 'error', undefined, 'failed without a message'],
  ] as const)('%s', (_name, status, error, reason) => {
    expect(failureReason({ status, ...(error !== undefined ? { error } : {}) }, contender('acme/x'))).toBe(
      reason,
    );
  });

  it.each([
    ['takes the case key out', 'this worker has no case d/v/0042', 'this worker has no case ‹case›'],
    ['takes it out wherever it stands', 'd/v/0042: timed out', '‹case›: timed out'],
    [
      'takes out the case without its dataset',
      'no expected answer for v/0042',
      'no expected answer for ‹case›',
    ],
    ['leaves a longer key that starts alike', 'see d/v/00421', 'see d/v/00421'],
    ['leaves a message without the case', 'HTTP 500: down', 'HTTP 500: down'],
  ])('%s', (_name, error, reason) => {
    expect(failureReason({ status: 'error', error }, contender('acme/x'), 'd/v/0042')).toBe(reason);
  });
});

describe('summarizeFailures: per contender, each reason with its count and first case', () => {
  const contenders = [contender('acme/x'), contender('acme/y'), contender('acme/z')];
  const experiments = contenders.map((c, i) => ({
    id: `00${i + 1}-d`,
    contender: c.key,
    dataset: 'd',
    caseKeys: ['d/a/001', 'd/a/002', 'd/a/003'],
  }));
  const results = [
    // x: every call failed, two reasons, the commoner first.
    result('001-d', 'd/a/003', { status: 'error', error: 'acme acme/x: HTTP 404: gone' }),
    result('001-d', 'd/a/001', { status: 'error', error: 'the adapter failed: boom' }),
    result('001-d', 'd/a/002', { status: 'error', error: 'acme acme/x: HTTP 404: gone' }),
    // y: a failed reply among scored cases, graded as a failure (scored); z: all scored, left out.
    result('002-d', 'd/a/001', {}),
    result('002-d', 'd/a/002', { status: 'reply_error', error: 'not JSON: x' }),
    result('002-d', 'd/a/003', {}),
    ...['d/a/001', 'd/a/002', 'd/a/003'].map((k) => result('003-d', k, {})),
  ];

  it('groups, counts, takes the first case in case order, and names the contenders that scored nothing', () => {
    expect(summarizeFailures(contenders, experiments, results)).toEqual([
      {
        contender: 'acme:acme/x effort=default',
        cases: 3,
        scored: 0,
        errors: 3,
        messages: [
          { message: 'HTTP 404: gone', count: 2, example: 'd/a/002' },
          { message: 'the adapter failed: boom', count: 1, example: 'd/a/001' },
        ],
      },
      {
        contender: 'acme:acme/y effort=default',
        cases: 3,
        scored: 3,
        errors: 1,
        messages: [{ message: 'not JSON', count: 1, example: 'd/a/002' }],
      },
    ]);
  });

  it('groups messages that differ only by the case they name, with one example case', () => {
    const keys = ['d/v/0001', 'd/v/0002', 'd/v/0003'];
    const own = [{ id: '001-d', contender: contenders[0]!.key, dataset: 'd', caseKeys: keys }];
    const failed = keys.map((k) =>
      result('001-d', k, { status: 'error', error: `this worker has no case ${k}` }),
    );
    expect(summarizeFailures([contenders[0]!], own, failed)[0]!.messages).toEqual([
      { message: 'this worker has no case ‹case›', count: 3, example: 'd/v/0001' },
    ]);
  });
});
