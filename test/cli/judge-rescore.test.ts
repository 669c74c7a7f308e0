import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { completion, userText } from '../providers/chat-server.ts';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { editFile } from '../helpers/suite-dir.ts';
import { cliEnv, providerSuite, savedSnapshots } from '../providers/cli-suite.ts';

// `rescore` grades a run's saved replies again with the lineup's current judge, through the real CLI against a judge
// on 127.0.0.1: its verdicts come from the reply cache while the rubric is the run's (0 calls), and a changed rubric
// asks one verdict per reply.

const { dirs, servers } = cliFixtures();

/** Every snapshot the suite saved, oldest first. */
const snapshots = (project: string): Snapshot[] =>
  savedSnapshots(join(project, 'evals/results')).map((s) => s.snapshot);
const judgeOf = (s: Snapshot) => Object.fromEntries(s.results.map((r) => [r.caseKey, r.metrics.judge]));

describe('rescore with a judge', () => {
  it('re-judges the saved replies with the current rubric, its cached verdicts reused', async () => {
    // Passes a cat while the rubric asks for one; once the rubric asks for a dog, passes a dog.
    const server = new FaultServer({
      judge: (_n, request) => {
        const text = userText(request);
        const wanted = /<rubric>\nIs it a (\w+)\?/.exec(text)?.[1] ?? '';
        const reply = /<reply>\n([\s\S]*?)\n<\/reply>/.exec(text)?.[1] ?? '';
        const score = reply.includes(`"${wanted}"`) ? 'pass' : 'fail';
        return completion(JSON.stringify({ reasoning: 'looked', score }), {
          prompt_tokens: 100,
          completion_tokens: 10,
        });
      },
    });
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(
      dirs,
      `toy:\n  base_url: ${url}\n  prices: { input: 1, output: 2 }\n  models: [m]\n` +
        'judge:\n  model: toy/judge\n  rubric: Is it a cat?\n  scale: pass_fail\n',
    );
    const env = cliEnv(await warmCache(), {
      LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-judge-cache-'), 'c'),
    });
    const compare = await runCli(['compare', '--display', 'none', '-y', '--no-open', '--allow-failures'], {
      cwd: project,
      env,
    });
    expect(compare.code, compare.stderr).toBe(0);
    expect(server.of('judge')).toHaveLength(2);
    const [run] = snapshots(project);
    expect(judgeOf(run!)).toEqual({ 'pets/clear/001': 1, 'pets/clear/002': 0 });

    const rescore = () =>
      runCli(['rescore', run!.runId, '--display', 'none', '--allow-failures', '--no-open'], {
        cwd: project,
        env,
      });
    const same = await rescore();
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('the judge made 0 calls ($0.0000), 2 verdicts from the cache');
    expect(server.of('judge')).toHaveLength(2);
    expect(judgeOf(snapshots(project)[1]!)).toEqual({ 'pets/clear/001': 1, 'pets/clear/002': 0 });

    editFile(join(project, 'evals/.llm-evals.config.yml'), (text) =>
      text.replace('Is it a cat?', 'Is it a dog?'),
    );
    const changed = await rescore();
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toContain('the judge made 2 calls ($0.0002), 0 verdicts from the cache');
    expect(server.of('judge')).toHaveLength(4);
    // No contender was called again: its replies are the run's.
    expect(server.of('m')).toHaveLength(2);
    expect(judgeOf(snapshots(project)[2]!)).toEqual({ 'pets/clear/001': 0, 'pets/clear/002': 1 });
  }, 120_000);
});
