import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Received } from '../providers/chat-server.ts';
import { ChatServer, completion, failure, userText } from '../providers/chat-server.ts';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { always, FaultServer, warmCache, type Rule } from '../helpers/fault-server.ts';
import { caseFiles, TOY_SUITE, writeTree } from '../helpers/suite-dir.ts';
import { cliEnv, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';

// The judge as a metric, through the real CLI: a real chat-completions server on 127.0.0.1 answers both the
// contender (`toy/m`, echoing the case, so its replies are right) and the judges (`toy/judge`, … — models the
// section does not list), each judge by a rule of its own.

const { dirs, servers } = cliFixtures();
const stops: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(stops.map((stop) => stop())));

/** The reply the judge was shown, read back from its prompt. */
const shown = (request: Received) => /<reply>\n([\s\S]*?)\n<\/reply>/.exec(userText(request))?.[1] ?? '';
const verdict = (score: string | number, reasoning = 'checked') =>
  completion(JSON.stringify({ reasoning, score }), { prompt_tokens: 100, completion_tokens: 10 });
/** Passes a reply about a cat, fails any other. */
const catJudge: Rule = (_n, request) => verdict(shown(request).includes('"cat"') ? 'pass' : 'fail');
const garbage: Rule = () => completion('Looks fine to me, I would give it full marks!');

async function judgedSuite(rules: Record<string, Rule>, judge: string) {
  const server = new FaultServer(rules);
  servers.push(server);
  const url = await server.start();
  // $1 and $2 per million tokens: a verdict (100 in, 10 out) costs $0.00012.
  const section = `toy:\n  base_url: ${url}\n  prices: { input: 1, output: 2 }\n  models: [m]\n`;
  const project = providerSuite(dirs, section + judge);
  const env = cliEnv(await warmCache(), {
    LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-judge-cache-'), 'c'),
  });
  const compare = (display = 'none') =>
    runCli(['compare', '--display', display, '-y', '--allow-failures', '--no-open'], { cwd: project, env });
  return { server, project, env, compare };
}

/** Each result by case key, with the fields a judge sets. */
const byCase = (s: Snapshot) =>
  Object.fromEntries(
    s.results.map((r) => [
      r.caseKey,
      { status: r.status, score: r.score, metrics: r.metrics, error: r.error },
    ]),
  );

describe('a judge in the lineup', () => {
  it('grades each reply through the same endpoint, joins the scorer, and a second run makes 0 judge calls', async () => {
    const { server, project, compare } = await judgedSuite(
      { judge: catJudge },
      'judge:\n  model: toy/judge\n  rubric: Is the animal a cat?\n  scale: pass_fail\n  reference: expected\n',
    );
    const first = await compare();
    expect(first.code, first.stderr).toBe(0);
    expect(server.of('judge')).toHaveLength(2);
    expect(server.of('m')).toHaveLength(2);
    const prompt = server.hits.find((h) => h.model === 'judge')!.user;
    expect(prompt).toContain('<rubric>\nIs the animal a cat?\n</rubric>');
    expect(prompt).toContain('<expected>');
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.metrics.map((m) => m.name)).toEqual([
      'field_accuracy',
      'exact_match',
      'restraint',
      'judge',
    ]);
    const results = byCase(snapshot);
    expect(results['pets/clear/001']).toMatchObject({ status: 'scored', score: 1, metrics: { judge: 1 } });
    expect(results['pets/clear/002']).toMatchObject({ status: 'scored', score: 1, metrics: { judge: 0 } });
    expect(snapshot.results.every((r) => r.diagnostics.judge_calls === 1)).toBe(true);
    // The judge's tokens and dollars are its own: the contender's usage (its server says none) holds none of them.
    expect(snapshot.results.map((r) => r.usage.inputTokens)).toEqual([null, null]);
    expect(first.stderr).toContain(
      "judge: 2 calls, 200 tokens in, 20 out, $0.0002 apart from the contenders'",
    );

    // The same run again: every answer and every verdict from the reply cache.
    const second = await compare();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      'judge: 0 calls (2 from the cache), 200 tokens in, 20 out, $0.0000 apart',
    );
    expect(server.of('judge')).toHaveLength(2);
    expect(server.of('m')).toHaveLength(2);
  }, 120_000);

  it('asks k samples per reply, each cached apart, and marks a reply whose samples differ unstable', async () => {
    // Per reply: pass, pass, then fail — the majority passes, the reply is unstable.
    const seen = new Map<string, number>();
    const flaky: Rule = (_n, request) => {
      const n = seen.get(shown(request)) ?? 0;
      seen.set(shown(request), n + 1);
      return verdict(n < 2 ? 'pass' : 'fail');
    };
    const { server, project, compare } = await judgedSuite(
      { judge: flaky },
      'judge:\n  model: toy/judge\n  rubric: Is it an animal?\n  scale: pass_fail\n  samples: 3\n',
    );
    const check = () => {
      const { snapshot } = savedSnapshot(project);
      for (const r of snapshot.results) {
        expect(r.metrics.judge).toBe(1);
        expect(r.diagnostics.judge).toMatchObject({ n: 1, failed: 0, unstable: ['toy/judge'] });
      }
    };
    const first = await compare();
    expect(first.code, first.stderr).toBe(0);
    expect(server.of('judge')).toHaveLength(6);
    check();
    // Each sample has its own place in the cache: the second run reads back the same three, differing verdicts.
    rmSync(join(project, 'evals/results'), { recursive: true, force: true });
    const second = await compare();
    expect(second.code, second.stderr).toBe(0);
    expect(server.of('judge')).toHaveLength(6);
    check();
  }, 120_000);

  it('names a judge that replies garbage as a judge failure, never a 0', async () => {
    const { project, compare } = await judgedSuite(
      { judge: garbage },
      'judge:\n  model: toy/judge\n  rubric: Is the animal a cat?\n  scale: 1-5\n',
    );
    const run = await compare('tui');
    expect(run.code, run.stderr).toBe(0);
    const { snapshot } = savedSnapshot(project);
    for (const r of snapshot.results) {
      expect(r.status).toBe('error');
      expect(r.score).toBeNull();
      expect(r.metrics.judge).toBeUndefined();
      expect(r.error).toContain('judge failure: toy/judge: the judge reply holds no JSON object');
      expect(r.error).toContain('Looks fine to me');
    }
    // The error summary names it, with the raw text.
    expect(run.stdout).toContain('judge failure');
    expect(run.stdout).toContain('Looks fine to me');
  }, 120_000);

  it('a panel with a judge replying garbage and one whose calls fail: the two left decide, their tie stays a tie', async () => {
    const { server, project, compare } = await judgedSuite(
      {
        yes: () => verdict('pass'),
        broken: garbage,
        down: always(failure(400, 'bad request')),
        cats: catJudge,
      },
      'judge:\n  models: [toy/yes, toy/broken, toy/down, toy/cats]\n  rubric: Is the animal a cat?\n  scale: pass_fail\n',
    );
    const run = await compare();
    expect(run.code, run.stderr).toBe(0);
    // A 400 is not retried: each judge was asked once per reply.
    const asked = ['yes', 'broken', 'down', 'cats'].map((m) => server.of(m).length);
    expect(asked).toEqual([2, 2, 2, 2]);
    const { snapshot } = savedSnapshot(project);
    const results = byCase(snapshot);
    // The cat: both readable judges pass it.
    expect(results['pets/clear/001']!.metrics).toMatchObject({
      judge: 1,
      'judge.toy/yes': 1,
      'judge.toy/broken': null,
      'judge.toy/down': null,
      'judge.toy/cats': 1,
    });
    // The dog: one passes, one fails, the third failed: a tie, reported as one, not broken by the list's order.
    expect(results['pets/clear/002']!.metrics).toMatchObject({
      judge: null,
      'judge.toy/yes': 1,
      'judge.toy/broken': null,
      'judge.toy/down': null,
      'judge.toy/cats': 0,
    });
    const dog = snapshot.results.find((r) => r.caseKey === 'pets/clear/002')!;
    expect(dog.diagnostics.judge).toMatchObject({ n: 2, failed: 2, tie: true });
    const cat = snapshot.results.find((r) => r.caseKey === 'pets/clear/001')!;
    expect(cat.diagnostics.judge).toMatchObject({ n: 2, failed: 2 });
    expect(JSON.stringify(cat.diagnostics.judge)).toContain('Looks fine to me');
    expect(JSON.stringify(cat.diagnostics.judge)).toContain('the judge call failed');
  }, 120_000);

  it.each([
    ['scale: 1to5', 'judge.scale', '"1to5"'],
    ['scale: pass_fail\n  rubric: "  "', 'judge.rubric', 'the rubric is empty'],
  ])(
    'refuses a bad judge (%s) before any call, exit 2',
    async (line, key, named) => {
      const { server, compare } = await judgedSuite(
        {},
        `judge:\n  model: toy/judge\n  ${line.includes('rubric') ? '' : 'rubric: r\n  '}${line}\n`,
      );
      const run = await compare();
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('.llm-evals.config.yml');
      expect(run.stderr).toContain(key);
      expect(run.stderr).toContain(named);
      expect(server.hits).toHaveLength(0);
    },
    60_000,
  );

  it('refuses a judge whose key is unset, in compare and in verify, before any call', async () => {
    const { server, project, env, compare } = await judgedSuite(
      {},
      'judge:\n  model: openai/gpt-4o-mini\n  rubric: r\n  scale: pass_fail\n',
    );
    const run = await compare();
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('OPENROUTER_API_KEY');
    const verify = await runCli(['verify'], { cwd: project, env });
    expect(verify.code, verify.stdout + verify.stderr).toBe(2);
    expect(verify.stdout).toContain('OPENROUTER_API_KEY');
    expect(server.hits).toHaveLength(0);
  }, 60_000);

  it.each([
    ['the lineup names no scorer', 'lineup'],
    ["the helper's JudgeScorer, its rubric a function of the case", 'helper'],
  ])(
    'is the primary metric when %s',
    async (_what, where) => {
      // 5 for a cat, 2 for anything else: on 0–1, 1 and 0.25.
      const server = new FaultServer({
        judge: (_n, request) => verdict(shown(request).includes('"cat"') ? 5 : 2),
      });
      servers.push(server);
      const url = await server.start();
      const cases = {
        ...caseFiles('evals/datasets/pets/cases/clear/001', {
          input: 'A cat.\n',
          expected: '{ "animal": "cat" }\n',
        }),
        ...caseFiles('evals/datasets/pets/cases/clear/002', {
          input: 'A dog.\n',
          expected: '{ "animal": "dog" }\n',
        }),
      };
      const section = `toy:\n  base_url: ${url}\n  models: [m]\n`;
      const files: Record<string, string> =
        where === 'lineup'
          ? {
              'evals/.llm-evals.config.yml': [
                `import: ${join(TOY_SUITE, 'lib/toy-suite.ts')}`,
                'adapter: ToyAdapter',
                'request_types: [prompt]',
                section,
                'judge:\n  model: toy/judge\n  rubric: Is it a cat?\n  scale: 1-5\n',
              ].join('\n'),
            }
          : {
              'evals/.llm-evals.config.yml': `request_types: [prompt]\n${section}`,
              'evals/eval_helper.ts': [
                "import { defineSuite, JudgeScorer } from 'llm-evals';",
                `import { ToyAdapter } from '${join(TOY_SUITE, 'lib/toy-suite.ts')}';`,
                'export default defineSuite({',
                '  adapter: new ToyAdapter(),',
                "  scorer: new JudgeScorer({ models: ['toy/judge'], rubric: (kase) => `Is ${kase.key} a cat?`, scale: '1-5' }),",
                '});',
              ].join('\n'),
            };
      const project = writeTree(
        where === 'helper' ? dirs.inRepo('judge-helper-') : dirs.os('llm-evals-judge-'),
        {
          ...cases,
          ...files,
        },
      );
      const env = cliEnv(await warmCache(), {
        LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-judge-cache-'), 'c'),
      });
      const run = await runCli(['compare', '--display', 'none', '-y', '--no-open'], { cwd: project, env });
      expect(run.code, run.stderr).toBe(0);
      const { snapshot } = savedSnapshot(project);
      expect(snapshot.metrics).toEqual([expect.objectContaining({ name: 'judge', primary: true })]);
      const results = byCase(snapshot);
      expect(results['pets/clear/001']).toMatchObject({ score: 1, metrics: { judge: 1 } });
      expect(results['pets/clear/002']).toMatchObject({ score: 0.25, metrics: { judge: 0.25 } });
      if (where === 'helper') {
        const rubrics = server.of('judge').map((h) => /<rubric>\n(.*)\n<\/rubric>/.exec(h.user)?.[1]);
        expect(rubrics.sort()).toEqual(['Is pets/clear/001 a cat?', 'Is pets/clear/002 a cat?']);
      }
    },
    120_000,
  );

  it('refuses a judge model its endpoint does not serve, naming judge.model, in verify and compare', async () => {
    const server = new ChatServer((request) => completion(userText(request)), { data: [{ id: 'm' }] });
    const url = await server.start();
    stops.push(() => server.stop());
    const project = providerSuite(
      dirs,
      `toy:\n  base_url: ${url}\n  models: [m]\njudge:\n  model: toy/judge\n  rubric: r\n  scale: pass_fail\n`,
    );
    const env = cliEnv(await warmCache(), {});
    const line = `evals/.llm-evals.config.yml: judge.model: "judge" is not among the models ${url}/models lists`;
    const verify = await runCli(['verify'], { cwd: project, env });
    expect(verify.code, verify.stdout + verify.stderr).toBe(2);
    expect(verify.stdout).toContain(line);
    const run = await runCli(['compare', '--display', 'none', '-y'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(line);
    expect(server.completions()).toHaveLength(0);
  }, 60_000);
});
