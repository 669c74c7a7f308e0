import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliLong, startCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { warmCache } from '../helpers/fault-server.ts';
import { writeTree } from '../helpers/suite-dir.ts';
import { ChatServer, messageReply, type Answer, type Received } from '../providers/chat-server.ts';
import { cliEnv, savedSnapshot } from '../providers/cli-suite.ts';

const { dirs, servers, spawned: started } = cliFixtures<ChatServer>();

/** The suite's code: an agent whose one tool appends each run to a file, so the test counts every run of it. */
const LIB = `
import { appendFileSync } from 'node:fs';
import { Adapter, runAgent, TrajectoryScorer, type Case, type Model, type Reply } from 'llm-evals';
export class AgentAdapter extends Adapter {
  async call(kase: Case, model: Model): Promise<Reply> {
    return runAgent(model, {
      messages: kase.messages ?? [],
      maxSteps: 6,
      tools: {
        lookup: {
          parameters: { type: 'object' },
          run: (args) => {
            appendFileSync(process.env.AGENT_TOOL_LOG!, args.q + ':' + args.n + '\\n');
            return { q: args.q, n: args.n, found: true };
          },
        },
      },
    });
  }
}
export class Trajectory extends TrajectoryScorer {}
`;

const TOOL_STEPS = 3;
const CASES = ['a', 'b', 'c'];
/** The case whose third step blocks until the worker is killed. */
const BLOCKED = 'b';

/** The user's text of a request: a case's name, or the `ping` of the probe of tool support the checks make. */
const askedOf = (request: Received) =>
  (request.body.messages as { role: string; content?: string }[]).find((m) => m.role === 'user')?.content ??
  '';
const toolResults = (request: Received) =>
  (request.body.messages as { role: string }[]).filter((m) => m.role === 'tool').length;

describe('an agent case interrupted mid-trajectory (SIGKILL), then resumed', () => {
  it('replays its finished steps from the reply cache and its recorded tool results: no step paid, no tool run twice', async () => {
    let killed = false;
    let blockedAt: (() => void) | undefined;
    const blocked = new Promise<void>((resolve) => (blockedAt = resolve));
    const server = new ChatServer((request): Answer => {
      const asked = askedOf(request);
      const n = toolResults(request);
      const message =
        n < TOOL_STEPS
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: `call_${asked}_${n}`,
                  type: 'function',
                  function: { name: 'lookup', arguments: JSON.stringify({ q: asked, n }) },
                },
              ],
            }
          : { role: 'assistant', content: `{"answer": "${asked}"}` };
      const answer = messageReply(message);
      // Step 3 of the blocked case hangs (no answer for a minute) until the worker has been killed.
      if (!killed && asked === BLOCKED && n === 2) {
        blockedAt!();
        return { ...answer, delayMs: 60_000 };
      }
      return answer;
    });
    servers.push(server);
    const url = await server.start();
    const cases = 'evals/datasets/trips/cases';
    const tree: Record<string, string> = {
      'lib/agent.ts': LIB,
      'evals/.llm-evals.config.yml': [
        'import: ./lib/agent.ts',
        'adapter: AgentAdapter',
        'scorer: Trajectory',
        'request_types: [prompt]',
        `lan:\n  base_url: ${url}\n  models: [m]`,
      ].join('\n'),
    };
    for (const name of CASES) {
      tree[`${cases}/${name}/input.json`] = JSON.stringify({ messages: [{ role: 'user', content: name }] });
      tree[`${cases}/${name}/expected.json`] = JSON.stringify({
        tool_calls: Array.from({ length: TOOL_STEPS }, (_, n) => ({
          name: 'lookup',
          arguments: { q: name, n },
        })),
      });
    }
    const project = writeTree(dirs.inRepo('agent-resume-'), tree);
    const toolLog = join(project, 'tool-runs.log');
    const env = cliEnv(await warmCache(), {
      LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-replies-'),
      AGENT_TOOL_LOG: toolLog,
    });
    const flags = ['--no-open', '--display', 'none', '-p', '1', '-j', '1'];
    const compare = startCli(['compare', ...flags], { cwd: project, env });
    started.push(compare);
    const runId = (await compare.waitFor(/run (\S+) started/))[1]!;
    await Promise.race([blocked, compare.done]);
    killed = true;
    compare.child.kill('SIGKILL');
    expect((await compare.done).signal).toBe('SIGKILL');
    const beforeResume = readFileSync(toolLog, 'utf8').trim().split('\n');
    // The blocked case ran its first two steps' tools before the kill.
    expect(beforeResume).toEqual(expect.arrayContaining([`${BLOCKED}:0`, `${BLOCKED}:1`]));

    const resumed = await runCliLong(['resume', runId, '--no-open', '--display', 'none'], {
      cwd: project,
      env,
    });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);

    // Each tool ran once per step of each case, across the kill and the resume.
    const runs = readFileSync(toolLog, 'utf8').trim().split('\n').sort();
    const expected = CASES.flatMap((name) => Array.from({ length: TOOL_STEPS }, (_, n) => `${name}:${n}`));
    expect(runs).toEqual(expected.sort());
    // No finished step was called twice: only the step in flight at the kill was asked again.
    const asked = new Map<string, number>();
    const steps = server.completions().filter((r) => askedOf(r) !== 'ping');
    for (const request of steps) {
      const key = JSON.stringify(request.body.messages);
      asked.set(key, (asked.get(key) ?? 0) + 1);
    }
    const twice = [...asked].filter(([, count]) => count > 1).map(([key]) => key);
    expect(twice).toHaveLength(1);
    const again = JSON.parse(twice[0]!) as { role: string; content?: string }[];
    expect(again.filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(again.find((m) => m.role === 'user')?.content).toBe(BLOCKED);
    expect(steps).toHaveLength(CASES.length * (TOOL_STEPS + 1) + 1);

    // The resumed case's trajectory is whole, and scores as an uninterrupted one would.
    const { snapshot } = savedSnapshot(project);
    for (const result of snapshot.results)
      expect(result.metrics, result.caseKey).toMatchObject({ score: 1, tool_f1: 1, steps: TOOL_STEPS + 1 });
  });
});
