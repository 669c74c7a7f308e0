import { describe, expect, it } from 'vitest';
import { fromSnapshot, idempotencyId } from '../../src/trackers/from-snapshot.ts';
import { trackerSnapshot } from './fixture.ts';

describe('fromSnapshot', () => {
  const [alpha, beta] = fromSnapshot(trackerSnapshot(), { project: 'toy-evals' });

  it('describes each experiment: run, suite, project, contender, dataset, case count and true times', () => {
    expect(alpha!.experiment).toEqual({
      runId: '20261130-120000-trk1',
      experimentId: '001-north',
      suite: 'toy',
      project: 'toy-evals',
      contender: {
        key: 'fake:fake/alpha effort=low t=0.2 max=512',
        id: 'fake/alpha',
        provider: 'fake',
        model: 'alpha',
        effort: 'low',
        temperature: 0.2,
        maxTokens: 512,
      },
      dataset: 'north',
      caseCount: 3,
      startedAt: '2026-11-30T12:00:00.000Z',
      finishedAt: '2026-11-30T12:00:07.000Z',
    });
    expect(beta!.experiment.contender.temperature).toBeNull();
  });

  it.each([
    ['north/clear', 'clear', 'clear', 'scored'],
    ['north/vague', 'vague', 'vague', 'reply_error'],
    ['north/long/001', 'long/001', 'long', 'error'],
  ])('records %s in case order with its case and a stable id', (caseKey, caseId, variant, status) => {
    const record = alpha!.records.find((r) => r.caseKey === caseKey)!;
    expect(alpha!.records.map((r) => r.caseKey).indexOf(caseKey)).toBe(
      ['north/clear', 'north/vague', 'north/long/001'].indexOf(caseKey),
    );
    expect(record).toMatchObject({
      idempotencyId: `20261130-120000-trk1/001-north/${caseKey}`,
      runId: '20261130-120000-trk1',
      caseId,
      dataset: 'north',
      variant,
      status,
      input: `The ${variant} case.`,
      expected: { colour: 'blue' },
      metadata: { difficulty: 'easy' },
    });
  });

  it('gives only the experiment asked for, the same as it is among all', () => {
    const only = fromSnapshot(trackerSnapshot(), {
      project: 'toy-evals',
      experimentId: beta!.experiment.experimentId,
    });
    expect(only).toEqual([beta]);
    expect(fromSnapshot(trackerSnapshot(), { experimentId: 'no-such' })).toEqual([]);
  });

  it('summarises each experiment as the report does: a failed call 0 in score and the primary metric, the other means skip null, both failures count as errors', () => {
    expect(alpha!.summary).toMatchObject({
      cases: 3,
      score: 0.3,
      metrics: { score: 0.3, exact: 0, tokens_per_field: 12 },
      valued: { score: 3, exact: 2, tokens_per_field: 1 },
      errors: 2,
      usage: { inputTokens: 190, outputTokens: 25 },
    });
  });

  it('leaves out cases a partial run has not finished, and falls back to the run times with none', () => {
    const snapshot = trackerSnapshot();
    snapshot.results = snapshot.results.filter(
      (r) => r.experimentId === '001-north' && r.caseKey !== 'north/vague',
    );
    const [partial, empty] = fromSnapshot(snapshot);
    expect(partial!.records.map((r) => r.caseKey)).toEqual(['north/clear', 'north/long/001']);
    expect(partial!.experiment.caseCount).toBe(3);
    expect(partial!.experiment.project).toBe('toy');
    expect(empty!.records).toEqual([]);
    expect(empty!.experiment).toMatchObject({
      startedAt: snapshot.createdAt,
      finishedAt: snapshot.finishedAt,
    });
  });

  it.each([
    ['r1', 'e1', 'd/v', 'r1/e1/d/v'],
    ['20261130-120000-ab12', '001-north', 'north/long/001', '20261130-120000-ab12/001-north/north/long/001'],
  ])('idempotencyId(%s, %s, %s) = %s', (run, experiment, kase, id) => {
    expect(idempotencyId(run, experiment, kase)).toBe(id);
  });
});
