import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Received } from '../providers/chat-server.ts';
import { completion, userText } from '../providers/chat-server.ts';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache, type Rule } from '../helpers/fault-server.ts';
import { cliEnv, newestSnapshot, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { suiteLabels } from '../../src/view/labels.ts';

// People's labels and the judge's agreement with them, through the real CLI: a chat-completions server on 127.0.0.1
// answers the contender (`toy/m`) and a judge (`toy/judge`) that passes a reply about a cat and fails any other.

const { dirs, servers } = cliFixtures();
const stops: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(stops.map((stop) => stop())));

const shown = (request: Received) => /<reply>\n([\s\S]*?)\n<\/reply>/.exec(userText(request))?.[1] ?? '';
const catJudge: Rule = (_n, request) =>
  completion(
    JSON.stringify({ reasoning: 'checked', score: shown(request).includes('"cat"') ? 'pass' : 'fail' }),
  );

async function judgedSuite() {
  const server = new FaultServer({ judge: catJudge });
  servers.push(server);
  const url = await server.start();
  const project = providerSuite(
    dirs,
    `toy:\n  base_url: ${url}\n  models: [m]\n` +
      'judge:\n  model: toy/judge\n  rubric: Is the animal a cat?\n  scale: pass_fail\n',
  );
  const env = cliEnv(await warmCache(), {
    LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-labels-cache-'), 'c'),
  });
  const cli = (...args: string[]) => runCli(args, { cwd: project, env });
  return { project, cli };
}

describe("people's labels and the judge's agreement with them", () => {
  it('labels replies by run, case and contender, and measures κ in agreement and in every report', async () => {
    const { project, cli } = await judgedSuite();
    const first = await cli('compare', '--display', 'none', '-y', '--allow-failures', '--no-open');
    expect(first.code, first.stderr).toBe(0);
    const { snapshot } = savedSnapshot(project);
    const run = snapshot.runId;
    expect(snapshot.judgeAgreement).toBeUndefined();

    // The judge passes 001 (a cat) and fails 002; the person passes both.
    for (const kase of ['pets/clear/001', 'pets/clear/002']) {
      const labelled = await cli('label', run, kase, 'toy/m', 'pass', '--by', 'ana');
      expect(labelled.code, labelled.stderr).toBe(0);
      expect(labelled.stdout).toContain(`${kase} by toy/m: its reply labelled pass`);
    }
    const lines = readFileSync(join(project, 'evals/labels.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    const label = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(label).toMatchObject({ case: 'pets/clear/001', label: 'pass', by: 'ana' });
    expect(label.reply_sha).toMatch(/^[0-9a-f]{64}$/);

    const agreement = await cli('agreement', '--json');
    expect(agreement.code, agreement.stderr).toBe(0);
    const [judged] = (
      JSON.parse(agreement.stdout) as { judgeAgreement: NonNullable<Snapshot['judgeAgreement']> }
    ).judgeAgreement;
    expect(judged).toMatchObject({
      judge: 'toy/judge',
      n: 2,
      agreement: 0.5,
      kappa: 0,
      categories: ['fail', 'pass'],
      confusion: [
        [0, 0],
        [1, 1],
      ],
      warn: true,
    });
    // The view's labels read the same file: a labelled reply shows its label, and one given there counts.
    const viewLabels = suiteLabels();
    const reply001 = snapshot.results.find((r) => r.caseKey === 'pets/clear/001')!.reply!;
    const onPage = await viewLabels.of(snapshot.suite.project);
    expect(onPage?.categories).toEqual(['fail', 'pass']);
    expect(onPage?.labelOf('pets/clear/001', reply001)).toBe('pass');
    const text = await cli('agreement', run);
    expect(text.stdout).toContain('toy/judge: n 2, agreement 50.0%, κ 0.00');
    expect(text.stdout).toContain('warning: κ below 0.6');

    const reply002 = snapshot.results.find((r) => r.caseKey === 'pets/clear/002')!.reply!;
    await viewLabels.add(snapshot.suite.project, 'pets/clear/002', reply002, 'fail');
    const agreed = await cli('agreement', run);
    expect(agreed.stdout).toContain('toy/judge: n 2, agreement 100.0%, κ 1.00');
    await viewLabels.add(snapshot.suite.project, 'pets/clear/002', reply002, 'pass');

    // The next run's replies are the same text: the labels hold, and its report carries the section.
    const second = await cli('compare', '--display', 'tui', '-y', '--allow-failures', '--no-open');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("Judge agreement with people's labels");
    const again = newestSnapshot(join(project, 'evals/results'));
    expect(again.runId).not.toBe(run);
    expect(again.judgeAgreement?.[0]).toMatchObject({ judge: 'toy/judge', n: 2, kappa: 0 });
  }, 120_000);

  it('refuses a contender the run does not hold, a value off the scale, and a label line that is not JSON', async () => {
    const { project, cli } = await judgedSuite();
    const first = await cli('compare', '--display', 'none', '-y', '--allow-failures', '--no-open');
    expect(first.code, first.stderr).toBe(0);
    const run = savedSnapshot(project).snapshot.runId;

    const stranger = await cli('label', run, 'pets/clear/001', 'toy/nope', 'pass');
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain('"toy/nope" is not a contender of run');
    expect(stranger.stderr).toContain('"toy/m"');

    const offScale = await cli('label', run, 'pets/clear/001', 'toy/m', '4');
    expect(offScale.code).toBe(2);
    expect(offScale.stderr).toContain('"4" is not on the judge\'s scale pass_fail');

    appendFileSync(join(project, 'evals/labels.jsonl'), 'this is no label\n');
    const bad = await cli('agreement', run);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('evals/labels.jsonl: line 1: not JSON');
    const refused = await cli('label', run, 'pets/clear/001', 'toy/m', 'pass');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('evals/labels.jsonl: line 1');
  }, 120_000);
});
