import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/core/results.ts';
import { startCli, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { ChatServer, closedPort, failure } from './chat-server.ts';
import { cliEnv, providerSuite, rowsByModel, savedSnapshot } from './cli-suite.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

/** Runs compare on a suite of `sections` and returns what it printed and each result with its model id. */
async function compare(sections: string, extra: Record<string, string>, args: string[] = []) {
  const project = providerSuite(dirs, sections);
  // Retries with back-off take a while, longer still on a busy machine: allow 150 s.
  const env = cliEnv(dirs.os(), extra);
  const run = await startCli(['compare', '-j', '0', ...args], { cwd: project, env, timeoutMs: 150_000 }).done;
  const { snapshot } = savedSnapshot(project);
  const models = new Map(
    snapshot.experiments.map((e) => [e.id, snapshot.contenders.find((c) => c.key === e.contender)!.id]),
  );
  return { run, results: snapshot.results.map((r) => ({ ...r, model: models.get(r.experimentId)! })) };
}

const REFUSALS: Record<string, [number, string]> = {
  'acme/unauthorized': [401, 'No auth credentials found'],
  'acme/forbidden': [403, 'Key disabled'],
  'acme/missing': [404, 'No endpoints found'],
};

describe('401, 403 and 404 through the real CLI', () => {
  const server = new ChatServer((request) => {
    const [status, message] = REFUSALS[request.body.model as string] ?? [500, 'unscripted model'];
    return failure(status, message);
  });
  let run: CliResult;
  let results: (CaseResult & { model: string })[];

  beforeAll(async () => {
    const url = await server.start();
    const lineup = 'openrouter:\n  vendors:\n    acme:\n      models: [unauthorized, forbidden, missing]\n';
    ({ run, results } = await compare(lineup, {
      OPENROUTER_BASE_URL: url,
      OPENROUTER_API_KEY: 'sk-or-test',
    }));
  }, 180_000);

  afterAll(() => server.stop());

  it('finish the run, each case an error without a score, counted in the errors column', () => {
    expect(run.code, run.stderr).toBe(1); // no contender scored a case
    const rows = rowsByModel(run.stdout);
    for (const model of Object.keys(REFUSALS)) expect(rows[model]?.errors).toBe('2');
    expect(results).toHaveLength(6);
    for (const r of results) expect(r).toMatchObject({ status: 'error', score: null });
  });

  it.each(Object.entries(REFUSALS))(
    '%s: one request per case, no retry storm, an error naming the provider and model',
    (model, [status, message]) => {
      expect(server.completions().filter((r) => r.body.model === model)).toHaveLength(2);
      for (const r of results.filter((x) => x.model === model)) {
        expect(r.attempts).toBe(1);
        expect(r.error).toBe(
          `openrouter ${model}: HTTP ${status}: ${message} (HTTP ${status} is not retried)`,
        );
      }
    },
  );
});

describe('an endpoint that is down, through the real CLI', () => {
  it('makes the case an error outcome once its retries are spent, counted as an error, not a crash', async () => {
    // --no-verify: the checks before the run would refuse the closed port; this is the run's own handling.
    const down = `down:\n  base_url: ${await closedPort()}\n  models: [gone]\n`;
    const { run, results } = await compare(down, {}, ['-c', 'clear/001', '--no-verify']);
    expect(run.code, run.stderr).toBe(1); // no contender scored a case
    expect(rowsByModel(run.stdout)['down/gone']?.errors).toBe('1');
    expect(results).toHaveLength(1);
    // Refused connections are retried like a 503 (a provider restarting, issue 44): five tries, then the error.
    expect(results[0]).toMatchObject({ status: 'error', score: null, attempts: 5 });
    expect(results[0]!.error).toMatch(
      /^down down\/gone: cannot connect to http:\/\/127\.0\.0\.1:\d+\/v1 \(connection refused\)/,
    );
  }, 180_000);
});

// Never a wrong word (issue 28): a host the resolver does not know (`getaddrinfo ENOTFOUND`) was retried for 37 s a
// case, while a closed port failed at once. No retry mends a name that does not resolve (.invalid never does).
describe('an endpoint whose host name does not resolve, through the real CLI', () => {
  it('is tried once per case, and the error says the host was not found', async () => {
    const nowhere = 'http://llm-evals-test.invalid/v1';
    const lineup = `nowhere:\n  base_url: ${nowhere}\n  models: [m]\n`;
    const { run, results } = await compare(lineup, {}, ['-c', 'clear/001', '--no-verify']);
    expect(run.code, run.stderr).toBe(1); // no contender scored a case
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'error', score: null, attempts: 1 });
    expect(results[0]!.error).toContain(`nowhere nowhere/m: cannot connect to ${nowhere} (host not found)`);
  }, 180_000);
});
