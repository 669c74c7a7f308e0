// What an agent run costs beside its model's own time, and what a re-run from the reply cache costs. With a stand-in
// model that calls a tool at each of its first 4 steps and answers at the 5th, each step taking 200 ms, N cases (200)
// and `-p` C (16), it runs the real `llm-evals compare` against the embedded Temporal server twice: first with an empty
// reply cache (every step called, every tool result recorded), then the same compare again (every step and tool
// result replayed from the cache: no call). It prints each run's wall time, the steps' own time N·S·L/C, their ratio
// (target ≤ 1.15, also from the first step's start to the last step's end, without the CLI's start), and the re-run's
// share of the first (target ≤ 10 %) with its calls (target 0).
// Usage: node --import tsx bench/agent.ts [N/S/L/C]     (default: 200/5/200/16)
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchEnv, runToyCli, withBenchServer, writeBenchSuite } from './toy-cli.ts';

const [n, steps, latency, lanes] = (process.argv[2] ?? '200/5/200/16').split('/').map(Number) as [
  number,
  number,
  number,
  number,
];
const repo = resolve(import.meta.dirname, '..');
const root = join(repo, 'tmp', 'bench-agent');
const suiteDir = join(root, 'suite');
const env = benchEnv(root, '7644', { LLM_EVALS_CACHE_DIR: join(root, 'replies') });

/** The suite: a stand-in model that calls `lookup` until it has read steps − 1 results, an agent adapter, its scorer. */
function writeSuite(): void {
  rmSync(join(suiteDir, 'evals'), { recursive: true, force: true });
  const helper = `import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Adapter, defineSuite, runAgent, TrajectoryScorer } from 'llm-evals';
const stats = { calls: 0, first: 0, last: 0, toolRuns: 0 };
process.on('exit', () => process.env.BENCH_STATS_FILE && writeFileSync(process.env.BENCH_STATS_FILE, JSON.stringify(stats)));
class AgentModel {
  name = 'bench'; prefix = 'bench/'; requestType = 'prompt'; requestTypeDescription = 'a stand-in agent model';
  direct = false; envKeys = []; efforts = [];
  catalog() { return [{ id: 'bench/agent', inputPrice: 0, outputPrice: 0 }]; }
  async complete(_model, request) {
    if (stats.calls++ === 0) stats.first = performance.now();
    await sleep(${latency});
    stats.last = performance.now();
    const messages = request.messages ?? [];
    const read = messages.filter((m) => m.role === 'tool').length;
    const usage = { inputTokens: 10, outputTokens: 5, costUsd: 0 };
    if (read >= ${steps - 1}) return { text: JSON.stringify({ done: read }), usage };
    const q = messages.find((m) => m.role === 'user')?.content ?? '';
    return { text: '', toolCalls: [{ id: 'call_' + read, name: 'lookup', arguments: { q, n: read } }], usage };
  }
}
class AgentAdapter extends Adapter {
  async call(kase, model) {
    return runAgent(model, {
      messages: kase.messages,
      maxSteps: ${steps + 1},
      tools: { lookup: { parameters: { type: 'object' }, run: (args) => { stats.toolRuns++; return { q: args.q, n: args.n }; } } },
    });
  }
}
export default defineSuite({ name: 'agent-bench', root: import.meta.dirname, adapter: new AgentAdapter(), scorer: new TrajectoryScorer(), providers: [new AgentModel()] });
`;
  const lineup = `request_types: [prompt]\nresults: { display: none }\nbench: { models: [agent] }\n`;
  writeBenchSuite(suiteDir, { helper, lineup }, n, (i) => ({
    dataset: 'd',
    id: String(i).padStart(5, '0'),
    files: {
      'input.json': JSON.stringify({ messages: [{ role: 'user', content: `case ${i}` }] }),
      'expected.json': JSON.stringify({
        tool_calls: Array.from({ length: steps - 1 }, (_, k) => ({
          name: 'lookup',
          arguments: { q: `case ${i}`, n: k },
        })),
      }),
    },
  }));
}

/** Runs `llm-evals args` in the suite, with `extra` in its environment. */
const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runToyCli(args, suiteDir, { ...env, ...extra });

interface Stats {
  calls: number;
  first: number;
  last: number;
  toolRuns: number;
}

/** One compare: its wall time, the steps called and the tools run, and the span of the calls. */
async function compare(what: string) {
  const statsFile = join(root, 'stats.json');
  rmSync(statsFile, { force: true });
  const run = await cli(['compare', '-p', String(lanes), '-j', '1', '--no-autosave'], {
    BENCH_STATS_FILE: statsFile,
  });
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as Stats;
  const span = stats.calls > 0 ? (stats.last - stats.first) / 1000 : 0;
  return { what, seconds: run.seconds, calls: stats.calls, toolRuns: stats.toolRuns, span };
}

rmSync(root, { recursive: true, force: true });
mkdirSync(suiteDir, { recursive: true });
writeSuite();
const rows = await withBenchServer(cli, async () => [
  await compare('first compare (empty cache)'),
  await compare('the same compare again'),
]);
const ideal = (n * steps * latency) / lanes / 1000;
const [first, again] = rows as [(typeof rows)[0], (typeof rows)[0]];
console.log(
  `${n} cases × ${steps} steps, ${latency} ms per step, -p ${lanes}: the steps' own time N·L/C = ${ideal.toFixed(2)} s`,
);
for (const r of rows)
  console.log(
    `${r.what.padEnd(28)}  wall ${r.seconds.toFixed(2).padStart(6)} s  steps called ${String(r.calls).padStart(5)}  tools run ${String(r.toolRuns).padStart(5)}`,
  );
console.log(
  `first run: wall / (N·L/C) = ${(first.seconds / ideal).toFixed(3)} (target ≤ 1.15); ` +
    `first step's start to last step's end / (N·L/C) = ${(first.span / ideal).toFixed(3)}`,
);
console.log(
  `re-run from the cache: ${((100 * again.seconds) / first.seconds).toFixed(1)} % of the first run's wall (target ≤ 10 %), ` +
    `${again.calls} calls (target 0), ${again.toolRuns} tools run`,
);
