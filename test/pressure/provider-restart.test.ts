import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/core/results.ts';
import { FaultServer, resultsByModel, warmCache, type Rule } from '../helpers/fault-server.ts';
import { runCliLong, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { completion, userText } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// Issue 44: a provider restarted mid-run (down for 2–3 s, connections refused) turned the cases called meanwhile
// into errors `cannot connect … (connection refused)` for good. A refused or reset connection is a transient failure
// like a 503: retried with back-off, an error only once the retries are spent.

const CASES = 40;
/** How long the provider stays down: connections are refused meanwhile, and the calls in flight are reset. */
const DOWN_MS = 2_500;

const dirs = new TempDirs();
let restarted: Promise<void> | undefined;
/** Slow enough replies that the run is still calling when the provider goes down, and after it is back. */
const slowEcho: Rule = (n, request) => {
  if (n === 8 && !restarted) restarted = server.restart(DOWN_MS);
  return { ...completion(userText(request)), delayMs: 150 };
};
const server = new FaultServer({ first: slowEcho, second: slowEcho });
let run: CliResult;
let results: Map<string, CaseResult[]>;

beforeAll(async () => {
  const url = await server.start();
  const lineup = `shared:\n  base_url: ${url}\n  models: [first, second]\n`;
  const project = providerSuite(dirs, lineup, numberedCases(CASES));
  run = await runCliLong(['compare', '-j', '0', '-p', '3', '--display', 'none'], {
    cwd: project,
    env: cliEnv(await warmCache(), {}),
  });
  await restarted;
  results = resultsByModel(savedSnapshot(project).snapshot);
}, 240_000);

afterAll(async () => {
  await server.stop();
  dirs.removeAll();
});

describe('a provider restarted mid-run', () => {
  it('went down while the run was calling, and was called again once it was back', () => {
    expect(restarted).toBeDefined();
    const times = server.hits.map((h) => h.t);
    const gap = Math.max(...times.slice(1).map((t, i) => t - times[i]!));
    expect(gap, 'no call reached the provider while it was down').toBeGreaterThanOrEqual(DOWN_MS - 100);
  });

  it('ends every case with a reply, none errored, and exits 0', () => {
    expect(run.code, run.stderr).toBe(0);
    for (const model of ['first', 'second']) {
      const mine = results.get(model) ?? [];
      expect(mine).toHaveLength(CASES);
      const errors = mine.filter((r) => r.status !== 'scored').map((r) => `${r.caseKey}: ${r.error}`);
      expect(errors).toEqual([]);
    }
  });

  it('retried the calls the outage failed', () => {
    const retried = [...results.values()].flat().filter((r) => r.attempts > 1);
    expect(retried.length).toBeGreaterThan(0);
  });
});
