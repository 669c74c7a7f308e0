import { spawn } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { parse } from 'yaml';
import { runCliLong } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { JsonServer, type Received } from '../helpers/json-server.ts';
import { REPO } from '../helpers/suite-dir.ts';
import { completion } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// The composite action (action.yml) as GitHub would run it, without GitHub: its `run:` steps in order, in a scratch
// git repository, with the runner's files (step summary, outputs, event) as temporary files; its `uses:` steps (node,
// the caches) are GitHub's and skipped. Its comment goes to a local stand-in for GitHub's API.

const { dirs, servers } = cliFixtures();

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

/** A step's `${{ … }}` expressions, as far as the action uses them; anything else fails the test. */
function expand(text: string, inputs: Record<string, string>, outputs: Map<string, Record<string, string>>) {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    if (expression === 'github.action_path') return REPO;
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input) return inputs[input[1]!] ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return outputs.get(output[1]!)?.[output[2]!] ?? '';
    throw new Error(`action.yml: an expression the test cannot evaluate: ${expression}`);
  });
}

/** `key=value` lines a step appended to GITHUB_OUTPUT. */
const readOutputs = (file: string) =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

/** Runs one script as GitHub's `shell: bash` does; resolves with its exit code and what it wrote. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The action's steps in order, as a job runs them: until a step fails; the job's exit code and the logs. */
async function runAction(
  workspace: string,
  inputs: Record<string, string>,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; log: string; ran: string[] }> {
  const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as {
    runs: { using: string; steps: Step[] };
  };
  const outputs = new Map<string, Record<string, string>>();
  const ran: string[] = [];
  let log = '';
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.uses) continue;
    const file = join(dirs.os('llm-evals-action-output-'), 'output');
    writeFileSync(file, '');
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, inputs, outputs)]),
    );
    const cwd = join(workspace, expand(step['working-directory'] ?? '.', inputs, outputs));
    const result = await bash(step.run!, cwd, { ...process.env, ...env, ...stepEnv, GITHUB_OUTPUT: file });
    outputs.set(step.id ?? `step${i}`, readOutputs(file));
    ran.push(step.id ?? `step${i}`);
    log += result.output;
    if (result.code !== 0) return { code: result.code, log, ran };
  }
  return { code: 0, log, ran };
}

describe('the GitHub Action', () => {
  it('gates a pull request in a scratch repository: passes unchanged, fails a regression, keeps one comment', async ({
    expect,
  }) => {
    let wrong = 0;
    const provider = new FaultServer({
      m: () => (wrong > 0 ? (wrong--, completion('{"animal": "case", "name": "nobody"}')) : undefined),
    });
    servers.push(provider);
    const url = await provider.start();
    const workspace = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, numberedCases(30));

    // GitHub's API, as far as the comment needs it: list, create, update.
    const comments: { id: number; body: string }[] = [{ id: 1, body: 'LGTM' }];
    const calls: Received[] = [];
    const github = new JsonServer((request) => {
      calls.push(request);
      if (request.method === 'GET' && request.path.startsWith('/repos/acme/evals/issues/7/comments'))
        return { body: comments };
      if (request.method === 'POST' && request.path === '/repos/acme/evals/issues/7/comments') {
        comments.push({ id: 42, body: String(request.body.body) });
        return { status: 201, body: { id: 42 } };
      }
      const update = /^\/repos\/acme\/evals\/issues\/comments\/(\d+)$/.exec(request.path);
      if (request.method === 'PATCH' && update) {
        comments.find((c) => c.id === Number(update[1]))!.body = String(request.body.body);
        return { body: { id: Number(update[1]) } };
      }
      return { status: 404, body: { message: 'Not Found' } };
    });
    const api = await github.listen();
    try {
      const temp = dirs.os('llm-evals-action-runner-');
      const event = join(temp, 'event.json');
      writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
      const summary = join(temp, 'summary.md');
      const env = cliEnv(await warmCache(), {
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_API_URL: api,
        GITHUB_REPOSITORY: 'acme/evals',
        GITHUB_EVENT_PATH: event,
        GITHUB_WORKSPACE: workspace,
        RUNNER_TEMP: temp,
        LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-action-replies-'),
      });

      // The main branch's run, committed as the baseline snapshot.
      const main = await runCliLong(['compare', '--display', 'none', '--no-open'], { cwd: workspace, env });
      expect(main.code, main.stderr).toBe(0);
      const results = join(workspace, 'evals/results');
      copyFileSync(
        join(
          results,
          readdirSync(results).find((f) => f.endsWith('.json'))!,
        ),
        join(workspace, 'evals/baseline.json'),
      );
      const git = await bash(
        'git init -q && git add -A && git -c user.name=ci -c user.email=ci@example.com commit -qm main',
        workspace,
        process.env,
      );
      expect(git.code, git.output).toBe(0);
      const inputs = { suite: '.', baseline: 'evals/baseline.json', 'github-token': 'secret' };

      writeFileSync(summary, '');
      const same = await runAction(workspace, inputs, env);
      expect(same.code, same.log).toBe(0);
      expect(same.ran).toEqual(['paths', 'install', 'gate', 'comment', 'verdict']);
      expect(readFileSync(summary, 'utf8')).toContain('### ✅ llm-evals: no regression against');
      expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([
        'POST /repos/acme/evals/issues/7/comments',
      ]);
      expect(calls[0]!.headers.authorization).toBe('Bearer secret');
      expect(comments.find((c) => c.id === 42)!.body).toMatch(/^<!-- llm-evals-gate -->\n### ✅/);

      // A pull request that edits one case: one call (the rest from the reply cache), still gated, the edit not compared.
      // (The toy adapter asks for the expected answer, so the edit is to expected.json.)
      const expected = join(workspace, 'evals/datasets/pets/cases/bulk/001/expected.json');
      writeFileSync(expected, readFileSync(expected, 'utf8').replace('bulk/001', 'bulk/001, edited'));
      const before = provider.hits.length;
      const edited = await runAction(workspace, inputs, env);
      expect(edited.code, edited.log).toBe(0);
      expect(provider.hits.length - before).toBe(1);
      expect(readFileSync(summary, 'utf8')).toContain('Not compared: 1 edited.');

      // The pull request makes 20 of 30 answers wrong, on a runner whose reply cache was not restored (a cache of its
      // own): the job fails, and the same comment is updated.
      wrong = 20;
      writeFileSync(summary, '');
      const fresh = { ...env, LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-action-replies-') };
      const worse = await runAction(workspace, { ...inputs, 'max-drop': '50' }, fresh);
      expect(worse.code, worse.log).toBe(1);
      expect(worse.log).toContain('::error::llm-evals: the gate failed (exit 1)');
      const markdown = readFileSync(summary, 'utf8');
      expect(markdown).toContain('### ❌ llm-evals: 1 regression against');
      // 20 of the 29 cases still compared (one was edited) went wrong, or 19 if the edited one was among them.
      expect(markdown).toMatch(
        /\| lan\/m \| pets \| 100\.0% → 66\.7% \| −3[23]\.\d \[.*\] \| < 0\.0001 \| ❌ worse by 3[23]\.\d points/,
      );
      expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([
        'POST /repos/acme/evals/issues/7/comments',
        'PATCH /repos/acme/evals/issues/comments/42',
        'PATCH /repos/acme/evals/issues/comments/42',
      ]);
      expect(comments).toHaveLength(2);
      expect(comments.find((c) => c.id === 42)!.body).toBe(`<!-- llm-evals-gate -->\n${markdown}`);
    } finally {
      await github.close();
    }
  }, 300_000);

  it("the docs' examples ask only for what the action and the CLI take", ({ expect }) => {
    const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>;
    };
    const workflow = parse(readFileSync(join(REPO, 'docs/github-workflow.yml'), 'utf8')) as {
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
    };
    const gate = workflow.jobs.gate!.steps.find((s) => s.uses?.startsWith('llm-evals/'))!;
    expect(Object.keys(gate.with!).filter((k) => !(k in action.inputs))).toEqual([]);
    const gitlab = parse(readFileSync(join(REPO, 'docs/gitlab-ci.yml'), 'utf8')) as {
      evals: { script: string[] };
    };
    expect(gitlab.evals.script.join('\n')).toMatch(
      /llm-evals compare .*--baseline \S+ .*--format junit -o gate\.xml/,
    );
  });
});
