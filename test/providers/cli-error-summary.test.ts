import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { startCli, stripAnsi, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { ChatServer, closedPort, completion, failure, userText } from './chat-server.ts';
import { cliEnv, providerSuite, savedSnapshot } from './cli-suite.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

/** Runs the CLI on a suite of `sections` and returns what it printed and the snapshot it saved. */
async function runOn(project: string, args: string[]): Promise<CliResult> {
  // A closed port's retries with back-off take a while, longer on a busy machine.
  const env = cliEnv(dirs.os(), {});
  return startCli([...args, '--no-open'], { cwd: project, env, timeoutMs: 150_000 }).done;
}

describe('the error summary: a wrong model id and a closed port beside a working model, through the real CLI', () => {
  // `gpt-x` is the wrong id: the server knows only `good`, which repeats the user text (a right answer).
  const server = new ChatServer((request) =>
    request.body.model === 'good' ? completion(userText(request)) : failure(404, 'model not found'),
  );
  let project: string;
  let run: CliResult;
  let snapshot: Snapshot;

  beforeAll(async () => {
    const url = await server.start();
    const down = await closedPort();
    const lineup =
      `acme:\n  base_url: ${url}\n  models: [gpt-x, good]\n` +
      `down:\n  base_url: ${down}\n  models: [gone]\n`;
    project = providerSuite(dirs, lineup);
    run = await runOn(project, [
      'compare',
      '-j',
      '0',
      '--display',
      'tui',
      '-o',
      'report.html',
      '--no-verify',
    ]);
    ({ snapshot } = savedSnapshot(project));
  }, 180_000);

  afterAll(() => server.stop());

  it('prints, per failed contender, each distinct error with its count and first case, before the glossary', () => {
    const out = stripAnsi(run.stdout);
    const summary = out.slice(out.indexOf('Errors by contender'), out.indexOf('Glossary'));
    expect(out.indexOf('Errors by contender'), out).toBeGreaterThan(0);
    expect(summary).toContain('acme/gpt-x: every call failed (2 of 2)');
    expect(summary).toContain(
      'acme/gpt-x: 2 × HTTP 404: model not found (HTTP 404 is not retried) (e.g. pets/clear/001)',
    );
    expect(summary).toContain('down/gone: every call failed (2 of 2)');
    expect(summary).toMatch(
      /down\/gone: 2 × .*(ECONNREFUSED|connection refused).* \(e\.g\. pets\/clear\/001\)/,
    );
    expect(summary).not.toContain('acme/good');
  });

  it('exits 1, naming the contenders that scored nothing', () => {
    expect(run.code, run.stderr).toBe(1);
    expect(stripAnsi(run.stderr)).toContain('contenders with no scored case: acme/gpt-x, down/gone');
  });

  it('report RUN exits 1 as compare did, naming them; with --allow-failures, 0', async () => {
    const report = await runOn(project, ['report', snapshot.runId, '--display', 'tui']);
    expect(report.code, report.stderr).toBe(1);
    expect(report.stdout).toContain('acme/gpt-x: every call failed (2 of 2)');
    expect(report.stderr).toContain('contenders with no scored case: acme/gpt-x, down/gone');
    const allowed = await runOn(project, ['report', snapshot.runId, '--display', 'tui', '--allow-failures']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).not.toContain('with no scored case');
  }, 60_000);

  it('records the summary in the snapshot JSON', () => {
    expect(snapshot.failures).toEqual([
      {
        contender: 'acme:acme/gpt-x effort=default',
        cases: 2,
        scored: 0,
        errors: 2,
        messages: [
          {
            message: 'HTTP 404: model not found (HTTP 404 is not retried)',
            count: 2,
            example: 'pets/clear/001',
          },
        ],
      },
      expect.objectContaining({ contender: 'down:down/gone effort=default', cases: 2, scored: 0, errors: 2 }),
    ]);
  });

  it('shows it in the HTML report, linked from the navigation', () => {
    const html = readFileSync(join(project, 'report.html'), 'utf8');
    expect(html).toContain('<a href="#errors">Errors</a>');
    expect(html).toMatch(/<section id="errors">[\s\S]*every call failed \(2 of 2\)[\s\S]*<\/section>/);
    expect(html).toContain(
      '<td>HTTP 404: model not found (HTTP 404 is not retried)</td><td>pets/clear/001</td>',
    );
  });

  it('with --allow-failures, the same failures exit 0', async () => {
    const again = await runOn(project, ['run', '-m', 'acme/gpt-x', '--allow-failures', '--display', 'tui']);
    expect(again.code, again.stderr).toBe(0);
    expect(stripAnsi(again.stdout)).toContain('acme/gpt-x: 2 × HTTP 404: model not found');
    expect(readdirSync(join(project, 'evals/results')).filter((f) => f.endsWith('.json'))).toHaveLength(2);
  }, 120_000);
});
