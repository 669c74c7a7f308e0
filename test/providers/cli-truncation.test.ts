import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/core/results.ts';
import { runCli, stripAnsi, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { ChatServer, userText, type Answer, type Received } from './chat-server.ts';
import { cliEnv, providerSuite, rowsByModel, savedSnapshot } from './cli-suite.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

/** A reply the server stopped at its token limit: the first 10 characters of the JSON asked for, `finish_reason: length`. */
function cut(request: Received): Answer {
  const text = userText(request).slice(0, 10);
  return {
    body: {
      id: 'chatcmpl-cut',
      object: 'chat.completion',
      created: 0,
      model: String(request.body.model),
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'length' }],
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
    },
  };
}

describe('a reply cut at the token limit, through the real CLI', () => {
  const server = new ChatServer(cut);
  let project: string;
  let run: CliResult;
  let results: (CaseResult & { model: string })[];

  beforeAll(async () => {
    const url = await server.start();
    // `short` sends max_tokens 5; `open` sends none, so the server's own limit (unknown to us) applies.
    const lineup = `cutter:\n  base_url: ${url}\n  models:\n    - { model: short, max_tokens: 5 }\n    - open\n`;
    project = providerSuite(dirs, lineup);
    run = await runCli(['compare', '-j', '0', '--display', 'tui'], {
      cwd: project,
      env: cliEnv(dirs.os(), {}),
    });
    const { snapshot } = savedSnapshot(project);
    const ids = new Map(
      snapshot.experiments.map((e) => [e.id, snapshot.contenders.find((c) => c.key === e.contender)!.id]),
    );
    results = snapshot.results.map((r) => ({ ...r, model: ids.get(r.experimentId)! }));
  }, 120_000);

  afterAll(() => server.stop());

  it('records each reply as truncated, with an error that names the limit', () => {
    expect(run.code, run.stderr).toBe(0); // a cut reply is graded (as a failure): no --allow-failures needed
    expect(results).toHaveLength(4);
    for (const r of results) expect(r).toMatchObject({ status: 'reply_error', truncated: true });
    for (const r of results.filter((x) => x.model === 'cutter/short'))
      expect(r.error).toMatch(/^cut at max_tokens 5: not JSON: \{\s+"anima/);
    for (const r of results.filter((x) => x.model === 'cutter/open'))
      expect(r.error).toMatch(/^cut at the server's default token limit: not JSON: /);
  });

  it('counts them in a truncated column, and shows max_tokens beside the model', () => {
    const rows = rowsByModel(stripAnsi(run.stdout));
    expect(rows['cutter/short']).toMatchObject({ truncated: '2', max_tokens: '5', errors: '2' });
    expect(rows['cutter/open']).toMatchObject({ truncated: '2', max_tokens: 'default' });
    expect(stripAnsi(run.stdout)).toContain(
      'cutter/short max=5: 2 × cut at max_tokens 5: not JSON (e.g. pets/clear/001)',
    );
  });

  it('shows max_tokens in the progress view', () => {
    expect(stripAnsi(run.stderr)).toMatch(/2\/2 cutter\/short max=5 pets/);
  });

  it('compare -n warns about the entry that sets no max_tokens on an endpoint with an unknown default', async () => {
    const dry = await runCli(['compare', '-n'], { cwd: project, env: cliEnv(dirs.os(), {}) });
    expect(dry.code, dry.stderr).toBe(0);
    const warnings = stripAnsi(dry.stderr)
      .split('\n')
      .filter((l) => l.includes('max_tokens'));
    expect(warnings).toEqual([
      "warning: cutter/open sets no max_tokens, and its endpoint's default limit is unknown: replies may be cut at it (set max_tokens in the lineup, or --max-tokens)",
    ]);
  });
});
