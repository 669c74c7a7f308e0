import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.ts';
import { fromSnapshot } from '../../src/trackers/from-snapshot.ts';
import { localTracker } from '../../src/trackers/local.ts';
import { sendExperiment } from '../../src/trackers/send.ts';
import { contextFor, SECRET_REPLY, trackerSnapshot } from './fixture.ts';

const projectDir = mkdtempSync(join(tmpdir(), 'llm-evals-local-tracker-'));
afterAll(() => rmSync(projectDir, { recursive: true, force: true }));

describe('the local tracker (T1)', () => {
  it('writes log/llm-evals/<experiment>.<run>.json with settings, means, errors, usage and a row per case', async () => {
    const tracker = localTracker.create(contextFor({}, { projectDir }));
    const outcomes = [];
    for (const tracked of fromSnapshot(trackerSnapshot(), { project: 'toy-evals' })) {
      outcomes.push(await sendExperiment(tracker, tracked));
    }
    const dir = join(projectDir, 'log', 'llm-evals');
    expect(readdirSync(dir).sort()).toEqual([
      '001-north.20261130-120000-trk1.json',
      '002-north.20261130-120000-trk1.json',
    ]);
    expect(outcomes[0]).toEqual({ url: join(dir, '001-north.20261130-120000-trk1.json') });
    const text = readFileSync(join(dir, '001-north.20261130-120000-trk1.json'), 'utf8');
    expect(text).not.toContain(SECRET_REPLY);
    const log = JSON.parse(text) as Record<string, unknown> & { cases: Record<string, unknown>[] };
    expect(log).toMatchObject({
      runId: '20261130-120000-trk1',
      experiment: '001-north',
      suite: 'toy',
      project: 'toy-evals',
      settings: {
        id: 'fake/alpha',
        provider: 'fake',
        effort: 'low',
        temperature: 0.2,
        maxTokens: 512,
        dataset: 'north',
        cases: 3,
      },
      means: { score: 0.3, exact: 0, tokens_per_field: 12 },
      errors: 2,
      usage: { inputTokens: 190, outputTokens: 25 },
    });
    expect(log.cases).toHaveLength(3);
    // A row per line: a log of any size is written in pieces, and greps by case.
    const rows = text.split('\n').filter((line) => line.startsWith('    {'));
    expect(rows.map((line) => JSON.parse(line.replace(/,$/, '')) as unknown)).toEqual(log.cases);
    expect(log.cases[2]).toEqual({
      id: '20261130-120000-trk1/001-north/north/long/001',
      case: 'long/001',
      variant: 'long',
      status: 'error',
      score: null,
      metrics: {},
      outcomes: {},
      diagnostics: {},
      error: 'fake: 503 Service Unavailable <after 5 attempts>',
      usage: { inputTokens: null, outputTokens: null, costUsd: null },
      latency: null,
      duration: 4,
      attempts: 5,
      startedAt: '2026-11-30T12:00:03.000Z',
      finishedAt: '2026-11-30T12:00:07.000Z',
    });
  });

  it('writes an experiment that has no result with an empty list of cases', async () => {
    const tracker = localTracker.create(contextFor({}, { projectDir }));
    const [tracked] = fromSnapshot(trackerSnapshot(), { project: 'toy-evals' });
    const { url } = await sendExperiment(tracker, { ...tracked!, records: [] });
    const log = JSON.parse(readFileSync(url!, 'utf8')) as { experiment: string; cases: unknown[] };
    expect(log).toMatchObject({ experiment: '001-north', cases: [] });
  });

  it('refuses a key its lineup section does not know', () => {
    expect(() =>
      localTracker.create(contextFor({}, { config: { dir: 'x' }, configFile: 'lineup.yml' })),
    ).toThrow(new ConfigError('lineup.yml', 'local.dir', 'unknown key, got "x"'));
  });
});
