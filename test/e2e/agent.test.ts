import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { renderHtml } from '../../src/report/html.ts';
import { safeId } from '../../src/report/html-escape.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { warmCache } from '../helpers/fault-server.ts';
import { REPO, writeTree } from '../helpers/suite-dir.ts';
import { ChatServer, messageReply, type Received } from '../providers/chat-server.ts';
import { cliEnv, savedSnapshot } from '../providers/cli-suite.ts';

const { dirs, servers } = cliFixtures<ChatServer>();

/** The suite's code: an adapter that runs the agent loop over the case's conversation, scored by its trajectory. */
const LIB = `
import { Adapter, runAgent, TrajectoryScorer, type Case, type Model, type Reply } from 'llm-evals';
export class AgentAdapter extends Adapter {
  async call(kase: Case, model: Model): Promise<Reply> {
    return runAgent(model, {
      messages: kase.messages ?? [{ role: 'user', content: kase.input }],
      maxSteps: 4,
      tools: {
        weather: { parameters: { type: 'object' }, run: (args) => ({ city: args.city, celsius: 18 }) },
        book: { parameters: { type: 'object' }, run: () => 'booked' },
      },
    });
  }
}
export class StrictTrajectory extends TrajectoryScorer {
  constructor() {
    super({ mode: 'strict' });
  }
}
`;

/** A chat-completions server speaking OpenAI's tool calls: weather, then book, then an answer; "loop" never answers. */
function agentServer(request: Received) {
  const body = request.body as { messages: { role: string; content?: string }[] };
  const asked = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const results = body.messages.filter((m) => m.role === 'tool').length;
  const toolCall = (name: string, args: object) => ({
    id: `call_${results}`,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });
  const message =
    asked.includes('loop') || results === 0
      ? { role: 'assistant', content: null, tool_calls: [toolCall('weather', { city: 'Paris' })] }
      : results === 1
        ? { role: 'assistant', content: null, tool_calls: [toolCall('book', { hotel: 'H1' })] }
        : { role: 'assistant', content: '{"done": true}' };
  return messageReply(message);
}

/** The agents' model steps a server received, without the probe of tool support each run's checks make first. */
const steps = (server: ChatServer) =>
  server
    .completions()
    .filter(
      (r) => !(r.body.tools as { function: { name: string } }[]).some((t) => t.function.name === 'noop'),
    );

/**
 * The HTML report of the run in headless Chromium: each contender's trajectory as a timeline of steps beside the
 * expected calls, with each call's verdict; a screenshot is kept under tmp/ to look at.
 */
async function expectTimeline(snapshot: Snapshot): Promise<void> {
  const dir = dirs.os('agent-html-');
  const file = join(dir, 'report.html');
  writeFileSync(file, renderHtml(snapshot));
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
    viewport: { width: 1280, height: 900 },
  });
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    const swapped = page.locator(`#case-${safeId('trips/swapped')}`);
    await swapped.locator('summary').click();
    // The case's conversation a message a line, not its input.json.
    expect(await swapped.locator('pre.conversation').innerText()).toBe('user: Book, then the weather.');
    const steps = swapped.locator('ol.timeline > li.step');
    await expect.poll(() => steps.count()).toBe(3);
    expect(await steps.nth(0).innerText()).toMatch(
      /step 1 · tool calls[\s\S]*weather\({"city":"Paris"}\)[\s\S]*→ {"city":"Paris","celsius":18}/,
    );
    const expected = await swapped.locator('ol.expected-calls > li').allInnerTexts();
    expect(expected.map((t) => t.trim())).toEqual([
      'matched book({"hotel":"H1"})',
      'matched weather({"city":"Paris"})',
    ]);
    const loops = page.locator(`#case-${safeId('trips/loops')}`);
    await loops.locator('summary').click();
    expect(await loops.locator('li.step-max_steps').count()).toBe(1);
    expect(await loops.locator('.result > p').first().innerText()).toMatch(/steps 4 /);
    expect(await loops.locator('ol.timeline .call-invented').count()).toBe(3);
    await swapped.scrollIntoViewIfNeeded();
    mkdirSync(join(REPO, 'tmp'), { recursive: true });
    await page.screenshot({ path: join(REPO, 'tmp', 'agent-timeline.png'), fullPage: true });
  } finally {
    await context.close();
  }
}

const conversation = (text: string) => JSON.stringify({ messages: [{ role: 'user', content: text }] });
const WEATHER = { name: 'weather', arguments: { city: 'Paris' } };
const BOOK = { name: 'book', arguments: { hotel: 'H1' } };

describe('an agent suite through the real CLI', () => {
  it('runs each case step by step against a tool-calling server, scores its trajectory, and replays from the cache', async () => {
    const server = new ChatServer(agentServer);
    servers.push(server);
    const url = await server.start();
    const cases = 'evals/datasets/trips/cases';
    const project = writeTree(dirs.inRepo('agent-'), {
      'lib/agent.ts': LIB,
      'evals/.llm-evals.config.yml': [
        'import: ./lib/agent.ts',
        'adapter: AgentAdapter',
        'scorer: StrictTrajectory',
        'request_types: [prompt]',
        `lan:\n  base_url: ${url}\n  models: [m]`,
      ].join('\n'),
      [`${cases}/right/input.json`]: conversation('Weather in Paris, then book.'),
      [`${cases}/right/expected.json`]: JSON.stringify({ tool_calls: [WEATHER, BOOK] }),
      [`${cases}/swapped/input.json`]: conversation('Book, then the weather.'),
      [`${cases}/swapped/expected.json`]: JSON.stringify({ tool_calls: [BOOK, WEATHER] }),
      [`${cases}/loops/input.json`]: conversation('loop forever'),
      [`${cases}/loops/expected.json`]: JSON.stringify({ tool_calls: [WEATHER] }),
    });
    const env = cliEnv(await warmCache(), { LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-replies-') });
    const run = await runCli(['compare', '--display', 'none'], { cwd: project, env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // 3 steps for each finished case, 4 (maxSteps) for the one that loops.
    expect(steps(server)).toHaveLength(3 + 3 + 4);
    const { snapshot } = savedSnapshot(project);
    const byCase = Object.fromEntries(snapshot.results.map((r) => [r.caseKey, r]));
    expect(byCase['trips/right']!.metrics).toMatchObject({ score: 1, tool_f1: 1, order_ok: 1, steps: 3 });
    expect(byCase['trips/swapped']!.metrics).toMatchObject({ score: 0, tool_f1: 1, order_ok: 0, steps: 3 });
    expect(byCase['trips/loops']!.error).toMatch(/^max_steps: /);
    expect(byCase['trips/loops']!.metrics).toMatchObject({ score: 0, steps: 4, tool_recall: 1 });

    // Each result carries its trajectory: every step's calls, how their tools ran, their results, tokens and status.
    const right = byCase['trips/right']!.trajectory!;
    expect(right.map((step) => step.status)).toEqual(['tool_calls', 'tool_calls', 'answer']);
    expect(right[0]!.calls).toEqual([
      {
        id: 'call_0',
        name: 'weather',
        arguments: { city: 'Paris' },
        status: 'ok',
        result: '{"city":"Paris","celsius":18}',
      },
    ]);
    expect(right[1]!.calls[0]).toMatchObject({ name: 'book', status: 'ok', result: 'booked' });
    expect(right[2]).toMatchObject({
      text: '{"done": true}',
      calls: [],
      usage: { inputTokens: 10, outputTokens: 3 },
    });
    expect(byCase['trips/loops']!.trajectory!.at(-1)!.status).toBe('max_steps');
    await expectTimeline(snapshot);

    // The same suite again: every step of every case comes from the reply cache, keyed by the conversation so far.
    const again = await runCli(['compare', '--display', 'none'], { cwd: project, env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(steps(server)).toHaveLength(10);
    // …and the replayed steps kept their tool calls: the trajectories score the same.
    const dir = join(project, 'evals/results');
    const saved = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(saved).toHaveLength(2);
    for (const file of saved) {
      const { results } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Snapshot;
      const metrics = Object.fromEntries(results.map((r) => [r.caseKey, r.metrics]));
      expect(metrics).toEqual(Object.fromEntries(snapshot.results.map((r) => [r.caseKey, r.metrics])));
    }
  });

  it("scores with each match mode of the lineup's trajectory: section, with no scorer in code", async () => {
    const server = new ChatServer(agentServer);
    servers.push(server);
    const url = await server.start();
    const cases = 'evals/datasets/trips/cases';
    const lineup = (trajectory: string) =>
      [
        'import: ./lib/agent.ts',
        'adapter: AgentAdapter',
        'request_types: [prompt]',
        trajectory,
        `lan:\n  base_url: ${url}\n  models: [m]`,
      ].join('\n');
    // Every case's agent calls weather then book; the cases expect other calls.
    const expected = {
      right: [WEATHER, BOOK],
      swapped: [BOOK, WEATHER],
      extra: [WEATHER],
      missing: [WEATHER, BOOK, { name: 'book', arguments: { hotel: 'H2' } }],
    };
    const tree: Record<string, string> = { 'lib/agent.ts': LIB };
    for (const [name, calls] of Object.entries(expected)) {
      tree[`${cases}/${name}/input.json`] = conversation(`Trip ${name}`);
      tree[`${cases}/${name}/expected.json`] = JSON.stringify({ tool_calls: calls });
    }
    const project = writeTree(dirs.inRepo('agent-modes-'), tree);
    const config = join(project, 'evals/.llm-evals.config.yml');
    const env = cliEnv(await warmCache(), { LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-replies-') });
    const want: Record<string, Record<keyof typeof expected, number>> = {
      strict: { right: 1, swapped: 0, extra: 0, missing: 0 },
      unordered: { right: 1, swapped: 1, extra: 0, missing: 0 },
      subset: { right: 1, swapped: 1, extra: 0, missing: 1 },
      superset: { right: 1, swapped: 1, extra: 1, missing: 0 },
    };
    for (const [mode, scores] of Object.entries(want)) {
      writeFileSync(config, lineup(`trajectory:\n  mode: ${mode}\n  args: exact`));
      rmSync(join(project, 'evals/results'), { recursive: true, force: true });
      const run = await runCli(['compare', '--display', 'none'], { cwd: project, env });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const { results } = savedSnapshot(project).snapshot;
      const got = Object.fromEntries(results.map((r) => [r.caseKey.replace('trips/', ''), r.metrics.score]));
      expect(got, mode).toEqual(scores);
      // tool_f1 does not depend on the mode: 2 of 2 made calls expected in right and swapped, 1/2 and 2/3 else.
      const f1 = Object.fromEntries(results.map((r) => [r.caseKey.replace('trips/', ''), r.metrics.tool_f1]));
      expect(f1).toEqual({ right: 1, swapped: 1, extra: 2 / 3, missing: 0.8 });
    }
    // Every mode scored the same replies: one run's calls, the rest from the cache.
    expect(steps(server)).toHaveLength(4 * 3);

    writeFileSync(config, lineup('trajectory:\n  mode: sideways'));
    const bad = await runCli(['verify'], { cwd: project, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/\.llm-evals\.config\.yml: trajectory\.mode: .*sideways/);
  });
});
