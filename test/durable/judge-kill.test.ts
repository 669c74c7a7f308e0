import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completion } from '../providers/chat-server.ts';
import { runCliLong, startCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// SIGKILL of the worker while verdicts are in flight, then `resume`, through the real CLI against a chat-completions
// server on 127.0.0.1 that answers the contender at once and holds each verdict: no answer is paid twice (it is in the
// reply cache before its verdict is asked), and no verdict is paid twice but those in flight at the kill.

const { dirs, servers, spawned: started } = cliFixtures();

const CASES = 8;
const HOLD_MS = 1500;
/** The reply the judge was shown, read back from its prompt: it tells the cases apart. */
const shown = (user: string) => /<reply>\n([\s\S]*?)\n<\/reply>/.exec(user)?.[1] ?? '';
const countBy = (xs: readonly string[]) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};

describe('SIGKILL while verdicts are in flight, then resume', () => {
  it('pays no answer twice, and no verdict twice but those in flight', async () => {
    const server = new FaultServer({
      judge: () => ({ ...completion(JSON.stringify({ reasoning: 'ok', score: 'pass' })), delayMs: HOLD_MS }),
    });
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(
      dirs,
      `toy:\n  base_url: ${url}\n  models: [m]\n` +
        'judge:\n  model: toy/judge\n  rubric: Is it a case?\n  scale: pass_fail\n',
      numberedCases(CASES),
    );
    const env = cliEnv(await warmCache(), {
      LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-judge-kill-cache-'), 'c'),
    });
    const compare = startCli(['compare', '--display', 'none', '-y', '--no-open'], { cwd: project, env });
    started.push(compare);
    const runId = (await compare.waitFor(/run (\S+) started/))[1]!;
    // Wait until verdicts are held and some were given: the kill lands with verdicts in flight.
    const deadline = Date.now() + 60_000;
    while (server.of('judge').length < 4 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const killedAt = Date.now();
    compare.child.kill('SIGKILL');
    await compare.done;
    const before = server.of('judge');
    // Asked within HOLD_MS of the kill: its verdict was not given yet.
    const inFlight = before.filter((h) => h.t > killedAt - HOLD_MS + 50).map((h) => shown(h.user));
    const uncertain = before.filter((h) => Math.abs(h.t - (killedAt - HOLD_MS)) <= 50).length;
    expect(inFlight.length).toBeGreaterThan(0);

    const resumed = await runCliLong(['resume', runId, '--display', 'none', '--no-open'], {
      cwd: project,
      env,
    });
    expect(resumed.code, resumed.stderr).toBe(0);

    // Every answer paid once.
    const answers = countBy(server.of('m').map((h) => h.user));
    expect(answers.size).toBe(CASES);
    expect(
      [...answers.values()].every((n) => n === 1),
      JSON.stringify([...answers]),
    ).toBe(true);
    // Every verdict paid once, but those in flight at the kill (at most twice).
    const verdicts = countBy(server.of('judge').map((h) => shown(h.user)));
    expect(verdicts.size).toBe(CASES);
    const twice = [...verdicts].filter(([, n]) => n > 1).map(([reply]) => reply);
    expect([...verdicts.values()].every((n) => n <= 2)).toBe(true);
    if (uncertain === 0) for (const reply of twice) expect(inFlight).toContain(reply);
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.results.map((r) => [r.status, r.metrics.judge])).toEqual(
      Array.from({ length: CASES }, () => ['scored', 1]),
    );
  }, 240_000);
});
