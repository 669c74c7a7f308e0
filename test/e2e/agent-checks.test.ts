import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { warmCache } from '../helpers/fault-server.ts';
import { writeTree } from '../helpers/suite-dir.ts';
import { ChatServer, completion, failure, type Received } from '../providers/chat-server.ts';
import { cliEnv } from '../providers/cli-suite.ts';

const { dirs, servers } = cliFixtures<ChatServer>();

const LIB = `
import { Adapter, runAgent, TrajectoryScorer, type Case, type Model, type Reply } from 'llm-evals';
export class AgentAdapter extends Adapter {
  async call(kase: Case, model: Model): Promise<Reply> {
    return runAgent(model, {
      messages: kase.messages ?? [],
      tools: { weather: { parameters: { type: 'object' }, run: () => 'sunny' } },
    });
  }
}
export class Trajectory extends TrajectoryScorer {}
`;

const offersTools = (request: Received) => Array.isArray(request.body.tools);

async function agentSuite(refuses: boolean) {
  // Like a server whose model takes no tools: any request offering tools is a 400 that says so.
  const server = new ChatServer(
    (request) =>
      refuses && offersTools(request)
        ? failure(400, 'tools is not supported by this model')
        : completion('fine'),
    { data: [{ id: 'm' }] },
  );
  servers.push(server);
  const url = await server.start();
  const cases = 'evals/datasets/trips/cases';
  const project = writeTree(dirs.inRepo('agent-checks-'), {
    'lib/agent.ts': LIB,
    'evals/.llm-evals.config.yml': [
      'import: ./lib/agent.ts',
      'adapter: AgentAdapter',
      'scorer: Trajectory',
      'request_types: [prompt]',
      `lan:\n  base_url: ${url}\n  models: [m]`,
    ].join('\n'),
    [`${cases}/one/input.json`]: JSON.stringify({ messages: [{ role: 'user', content: 'Weather?' }] }),
    [`${cases}/one/expected.json`]: JSON.stringify({ tool_calls: [{ name: 'weather', arguments: {} }] }),
    [`${cases}/two/input.json`]: JSON.stringify({ messages: [{ role: 'user', content: 'Weather again?' }] }),
    [`${cases}/two/expected.json`]: JSON.stringify({ tool_calls: [{ name: 'weather', arguments: {} }] }),
  });
  const env = cliEnv(await warmCache(), { LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-replies-') });
  return { server, project, env };
}

describe('a model that refuses tools, in a suite whose cases expect tool calls', () => {
  it('is named by verify and by compare -n before the run, from one probe each, not as a 400 per case', async () => {
    const { server, project, env } = await agentSuite(true);
    const verify = await runCli(['verify'], { cwd: project, env });
    expect(verify.code, verify.stdout + verify.stderr).toBe(2);
    expect(verify.stdout).toMatch(
      /\.llm-evals\.config\.yml: lan\.models: "m" refuses tool calls \(HTTP 400: .*tools is not supported by this model\)/,
    );
    expect(server.completions()).toHaveLength(1);

    const dry = await runCli(['compare', '-n'], { cwd: project, env });
    expect(dry.code, dry.stdout + dry.stderr).toBe(2);
    expect(dry.stderr).toMatch(/lan\.models: "m" refuses tool calls/);
    // One probe per command, and no case was called.
    expect(server.completions()).toHaveLength(2);
    expect(server.completions().every((r) => r.body.max_tokens === 1)).toBe(true);
  });

  it('passes when the endpoint takes tools', async () => {
    const { project, env } = await agentSuite(false);
    const verify = await runCli(['verify'], { cwd: project, env });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    // `cases` says what a conversation case asks: its messages and its last user message.
    const cases = await runCli(['cases'], { cwd: project, env: { ...env, COLUMNS: '200' } });
    expect(cases.code, cases.stderr).toBe(0);
    expect(cases.stdout).toContain('1 message, user: "Weather again?"');
  });
});
