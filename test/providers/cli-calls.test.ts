import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { ChatServer, completion, failure, userText, type Received } from './chat-server.ts';
import { cliEnv, providerSuite, rowsByModel, savedSnapshot, tableRows } from './cli-suite.ts';

const dirs = new TempDirs();
const USAGE = { prompt_tokens: 20, completion_tokens: 10 };

/** Echoes the user text (the toy adapter's right answer), with usage and cost as each model is scripted to. */
function answer(request: Received) {
  const text = userText(request);
  const model = request.body.model as string;
  if (model === 'acme/silent') return completion(text);
  if (model === 'echo') return completion(text, USAGE);
  if (model === 'acme/busy' && !answer.busied) {
    answer.busied = true;
    return failure(429, 'slow down', { 'retry-after': '1' });
  }
  return completion(text, { ...USAGE, cost: 0.25 });
}
answer.busied = false;

const SECTIONS = (local: string) => `
openrouter:
  vendors:
    acme:
      models: [priced, silent, busy]
local-llm: # not \`local\`: that name is the local tracker's section
  base_url: ${local}
  api_key_env: LOCAL_KEY
  prices: { input: 1000, output: 2000 }
  models: [echo]
`;

describe('compare through the real CLI against a chat-completions server', () => {
  const server = new ChatServer(answer);
  let project: string;
  let env: NodeJS.ProcessEnv;
  let run: CliResult;

  beforeAll(async () => {
    const url = await server.start();
    project = providerSuite(dirs, SECTIONS(url));
    env = cliEnv(dirs.os(), {
      OPENROUTER_BASE_URL: url,
      OPENROUTER_API_KEY: 'sk-or-test',
      LOCAL_KEY: 'sk-local',
    });
    run = await runCli(['compare', '-j', '0'], { cwd: project, env });
  }, 90_000);

  afterAll(async () => {
    await server.stop();
    dirs.removeAll();
  });

  it('scores every case and shows tokens and cost as the server stated or the prices imply', () => {
    expect(run.code, run.stderr).toBe(0);
    const rows = rowsByModel(run.stdout);
    expect(Object.keys(rows).sort()).toEqual(['acme/busy', 'acme/priced', 'acme/silent', 'local-llm/echo']);
    expect(rows['acme/priced']).toMatchObject({ errors: '0', tok_in: '40', tok_out: '20', cost: '$0.5000' });
    // 2 cases × (20 × $1000 + 10 × $2000) per million tokens.
    expect(rows['local-llm/echo']).toMatchObject({
      errors: '0',
      tok_in: '40',
      tok_out: '20',
      cost: '$0.0800',
    });
  });

  it('shows a reply without usage as unknown, never as 0', () => {
    const silent = tableRows(run.stdout).find((r) => r.model === 'acme/silent')!;
    expect(silent).toMatchObject({ errors: '0', tok_in: '?', tok_out: '?', cost: '?' });
    const { snapshot } = savedSnapshot(project);
    const silentKeys = snapshot.contenders.filter((c) => c.id === 'acme/silent').map((c) => c.key);
    const experiments = snapshot.experiments.filter((e) => silentKeys.includes(e.contender)).map((e) => e.id);
    const results = snapshot.results.filter((r) => experiments.includes(r.experimentId));
    expect(results.map((r) => r.usage)).toEqual([
      { inputTokens: null, outputTokens: null, costUsd: null },
      { inputTokens: null, outputTokens: null, costUsd: null },
    ]);
  });

  it('retries a 429 after its Retry-After and then scores the case', () => {
    const busy = server.completions().filter((r) => r.body.model === 'acme/busy');
    expect(busy).toHaveLength(3);
    const row = tableRows(run.stdout).find((r) => r.model === 'acme/busy')!;
    expect(row).toMatchObject({ errors: '0', cost: '$0.5000' });
  });

  it('sends each provider its own key, read by the worker, and saves no key in the snapshot', () => {
    for (const request of server.completions()) {
      const local = request.body.model === 'echo';
      expect(request.headers.authorization).toBe(local ? 'Bearer sk-local' : 'Bearer sk-or-test');
      expect(request.body.usage).toEqual(local ? undefined : { include: true });
    }
    const { text } = savedSnapshot(project);
    expect(text).not.toContain('sk-or-test');
    expect(text).not.toContain('sk-local');
  });

  it.each(['OPENROUTER_API_KEY', 'LOCAL_KEY'])(
    'fails with exit 2 before any call when %s is missing, naming it',
    async (key) => {
      const before = server.received.length;
      const result = await runCli(['compare'], { cwd: project, env: { ...env, [key]: '' } });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`${key}: not set`));
      expect(result.stderr).toContain('nothing was called');
      expect(server.received.length).toBe(before);
    },
    60_000,
  );
});
