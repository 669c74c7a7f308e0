import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { braintrustTracker } from '../../src/trackers/braintrust.ts';
import { fromSnapshot } from '../../src/trackers/from-snapshot.ts';
import { sendExperiment } from '../../src/trackers/send.ts';
import { closedPort } from '../providers/chat-server.ts';
import { BraintrustServer } from './braintrust-server.ts';
import { contextFor, FAKE_OPENROUTER_KEY, trackerSnapshot } from './fixture.ts';

const API_KEY = 'bt-FAKE-key-42';
const server = new BraintrustServer(API_KEY);
let apiUrl = '';

beforeAll(async () => {
  apiUrl = await server.start();
});
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.projects.clear();
  server.experiments.clear();
  server.failWith = undefined;
});

/** Sends the fixture's run through a fresh braintrust tracker, as a run or a later resend would. */
async function sendRun(env: Record<string, string> = {}) {
  const tracker = braintrustTracker.create(
    contextFor({
      BRAINTRUST_API_KEY: API_KEY,
      BRAINTRUST_API_URL: apiUrl,
      OPENROUTER_API_KEY: FAKE_OPENROUTER_KEY,
      ...env,
    }),
  );
  const outcomes = [];
  for (const tracked of fromSnapshot(trackerSnapshot()))
    outcomes.push(await sendExperiment(tracker, tracked));
  return outcomes;
}

describe('the braintrust tracker', () => {
  it('makes one experiment per run, named by the run id, with one row per case', async () => {
    const outcomes = await sendRun();
    const url = 'https://www.braintrust.dev/app/test-org/p/toy-evals/experiments/20261130-120000-trk1';
    expect(outcomes).toEqual([{ url }, { url }]);
    expect([...server.projects.keys()]).toEqual(['toy-evals']);
    const experiments = [...server.experiments.values()];
    expect(experiments.map((e) => e.name)).toEqual(['20261130-120000-trk1']);
    expect([...experiments[0]!.rows.keys()]).toEqual([
      '20261130-120000-trk1/001-north/north/clear',
      '20261130-120000-trk1/001-north/north/vague',
      '20261130-120000-trk1/001-north/north/long/001',
      '20261130-120000-trk1/002-north/north/clear',
      '20261130-120000-trk1/002-north/north/vague',
      '20261130-120000-trk1/002-north/north/long/001',
    ]);
  });

  it('sends input, expected, output or error, metrics as scores, and the rest as metadata', async () => {
    await sendRun();
    const rows = [...server.experiments.values()][0]!.rows;
    const clear = rows.get('20261130-120000-trk1/001-north/north/clear')!;
    expect(clear).toMatchObject({
      input: 'The clear case.',
      expected: { colour: 'blue' },
      output: { colour: 'teal' },
      scores: { score: 0.9, exact: 0 },
      metadata: {
        model: 'fake/alpha',
        effort: 'low',
        temperature: 0.2,
        max_tokens: 512,
        dataset: 'north',
        case: 'clear',
        status: 'scored',
        outcomes: { correct: 3, missed: 1 },
        diagnostics: { colour: { want: 'blue', got: 'teal' } },
        usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.0004 },
        metrics: { score: 0.9, exact: 0, tokens_per_field: 12 },
      },
      metrics: { prompt_tokens: 100, completion_tokens: 20, tokens: 120 },
      created: '2026-11-30T12:00:01.500Z',
    });
    expect(clear.scores).not.toHaveProperty('tokens_per_field');
    const failed = rows.get('20261130-120000-trk1/001-north/north/long/001')!;
    expect(failed).toMatchObject({
      output: null,
      error: 'fake: 503 Service Unavailable <after 5 attempts>',
      scores: { score: null },
    });
  });

  it('adds no row on a resend of the same run: rows are stored by their id', async () => {
    await sendRun();
    await sendRun();
    expect(server.experiments.size).toBe(1);
    expect([...server.experiments.values()][0]!.rows.size).toBe(6);
  });

  it('uses BRAINTRUST_PROJECT_ID without looking the project up', async () => {
    await sendRun({ BRAINTRUST_PROJECT_ID: 'proj-given' });
    expect(server.requests.some((r) => r.path === '/v1/project')).toBe(false);
    expect([...server.experiments.values()][0]!.project_id).toBe('proj-given');
  });

  it('sends the key only as the bearer token, and no other secret from the env', async () => {
    await sendRun();
    for (const r of server.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(r.body).not.toContain(API_KEY);
      expect(`${r.body}${JSON.stringify(r.headers)}`).not.toContain(FAKE_OPENROUTER_KEY);
    }
  });

  it('returns a problem, never throws, when the API answers 500 or refuses the connection', async () => {
    server.failWith = 500;
    expect(await sendRun()).toEqual([
      {
        problem: {
          tracker: 'braintrust',
          experiment: '001-north',
          message:
            'braintrust: POST /v1/project answered 500: {"error":"the test server is failing on purpose"}',
        },
      },
      { problem: expect.objectContaining({ experiment: '002-north' }) as unknown },
    ]);
    const refused = await sendRun({ BRAINTRUST_API_URL: (await closedPort()).replace(/\/v1$/, '') });
    expect(refused[0]!.problem?.message).toMatch(
      /^braintrust: POST \/v1\/project failed: connect ECONNREFUSED/,
    );
  });
});
