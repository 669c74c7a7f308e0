import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/core/results.ts';
import { FaultServer, resultsByModel, warmCache } from '../helpers/fault-server.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { failure } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// S8: a retry closes the vendor for every call of the run. Two contenders of one endpoint section (one vendor) call
// side by side, one case at a time each; the fifth call of `first` is answered 429 with Retry-After: 3.

const WINDOW = 3;
/**
 * Calls that had their start before the gate heard of the 429 may still arrive just after it: the signal takes a
 * moment, and a worker trusts its last look at the gate for half a second.
 */
const GRACE = 1;
/** How late past the window its first calls may arrive: Temporal's timer, the worker's poll, a busy machine. */
const SLACK = 1.8;

const dirs = new TempDirs();
const shared = new FaultServer({
  first: (n) => (n === 4 ? failure(429, 'slow down', { 'retry-after': String(WINDOW) }) : undefined),
});
let sharedRun: CliResult;
let sharedResults: Map<string, CaseResult[]>;

beforeAll(async () => {
  const url = await shared.start();
  const lineup = `shared:\n  base_url: ${url}\n  models: [first, second]\n`;
  const project = providerSuite(dirs, lineup, numberedCases(16));
  sharedRun = await runCli(['compare', '-j', '0', '-p', '1', '--display', 'none'], {
    cwd: project,
    env: cliEnv(await warmCache(), {}),
  });
  sharedResults = resultsByModel(savedSnapshot(project).snapshot);
}, 90_000);

afterAll(async () => {
  await shared.stop();
  dirs.removeAll();
});

describe('a vendor closed by one experiment is closed for the others too (S8)', () => {
  /** The 429, and the seconds from it to each request, per contender. */
  const timeline = () => {
    const limited = shared.hits.find((h) => h.status === 429)!;
    const since = (model: string) => shared.of(model).map((h) => (h.t - limited.t) / 1000);
    return { first: since('first'), second: since('second') };
  };

  it('completes the run (exit 0), every case scored', () => {
    expect(sharedRun.code, sharedRun.stderr).toBe(0);
    for (const model of ['first', 'second']) {
      expect(sharedResults.get(model)).toHaveLength(16);
      expect(sharedResults.get(model)?.every((r) => r.status === 'scored')).toBe(true);
    }
  });

  it('the other contender was calling right up to the 429', () => {
    const statuses = shared.of('first').map((h) => h.status);
    expect(statuses).toHaveLength(17);
    expect(statuses.indexOf(429)).toBe(4);
    expect(statuses.filter((s) => s !== 200)).toEqual([429]);
    const after = timeline();
    expect(after.second.filter((s) => s > -2 && s < 0).length, JSON.stringify(after)).toBeGreaterThan(0);
  });

  it('no request of either contender arrives inside the window', () => {
    const after = timeline();
    const inside = [...after.first, ...after.second].filter((s) => s > GRACE && s < WINDOW);
    expect(inside, JSON.stringify(after)).toEqual([]);
  });

  it('the retried call comes at the end of the window, and the other contender goes on then', () => {
    const after = timeline();
    const retry = after.first[5]!;
    expect(retry, JSON.stringify(after)).toBeGreaterThanOrEqual(WINDOW);
    expect(retry, JSON.stringify(after)).toBeLessThan(WINDOW + SLACK);
    const resumed = after.second.find((s) => s > GRACE)!;
    expect(resumed, JSON.stringify(after)).toBeGreaterThanOrEqual(WINDOW - 0.05);
    expect(resumed, JSON.stringify(after)).toBeLessThan(WINDOW + SLACK);
  });
});
