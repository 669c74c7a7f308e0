// Measures what the paired statistics add to a report: compareContenders over C contenders × N cases with 10,000
// bootstrap resamples per comparison, for a 0/1 primary metric and for a graded one (many distinct values per case),
// and how much they grow the snapshot's JSON; then, with --repeat 2 and 3 on the graded metric (every case's repeats
// differ, the most a snapshot carries), how much each case's own spread adds. Pure computation, no server; the CPU
// seconds beside the wall time tell a busy machine's wait from the work.
// Usage: node --import tsx bench/paired-stats.ts [contenders=20] [cases=2000]
import { compareContenders, type ComparisonSource } from '../src/core/comparisons.ts';
import { caseSpreads, consistencyOf } from '../src/core/consistency.ts';
import { contenderKey, repeatContenders } from '../src/core/matrix.ts';
import type { CaseResult } from '../src/core/results.ts';
import { seededRandom } from '../src/core/stats.ts';

const [contenderCount = 20, caseCount = 2000] = process.argv.slice(2).map(Number);

function run(graded: boolean, repeats = 1): ComparisonSource {
  const random = seededRandom(42);
  const bases = Array.from({ length: contenderCount }, (_, i) => {
    const base = {
      provider: 'bench',
      id: `bench/m${i}`,
      effort: 'default',
      temperature: null,
      maxTokens: null,
    };
    return { ...base, key: contenderKey(base), model: `m${i}`, limits: [] };
  });
  const contenders = repeatContenders(bases, repeats);
  const caseKeys = Array.from({ length: caseCount }, (_, i) => `d/${i}`);
  const id = (c: (typeof contenders)[number]) => `${c.model}${c.repeat ? `-${c.repeat}` : ''}`;
  const experiments = contenders.map((c) => ({ id: id(c), contender: c.key, dataset: 'd', caseKeys }));
  const results: CaseResult[] = contenders.flatMap((c, i) =>
    caseKeys.map((caseKey) => {
      const skill = 0.6 + (0.3 * Math.floor(i / repeats)) / contenderCount;
      const value = graded ? Math.min(1, random() * 2 * skill) : random() < skill ? 1 : 0;
      return {
        experimentId: id(c),
        caseKey,
        status: 'scored',
        score: value,
        metrics: { score: value },
        outcomes: {},
        diagnostics: {},
        reply: '{"answer": "a reply of ordinary length for a case"}',
        usage: { inputTokens: 300, outputTokens: 40, costUsd: 0.0004 },
        latency: 1.2,
        duration: 1.3,
        startedAt: '2026-12-01T00:00:00.000Z',
        finishedAt: '2026-12-01T00:00:01.300Z',
        attempts: 1,
      };
    }),
  );
  return {
    runId: 'bench-run',
    metrics: [{ name: 'score', description: 'score', primary: true }],
    contenders,
    experiments,
    results,
    settings: { parallelism: 8, concurrency: 4 },
  };
}

for (const graded of [false, true]) {
  const source = run(graded);
  compareContenders(source, { resamples: 100 });
  // The median of five runs: one run on a shared machine is mostly the neighbours' noise.
  const runs = Array.from({ length: 5 }, () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const stats = compareContenders(source);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { stats, ms, cpuMs: (used.user + used.system) / 1000 };
  }).sort((a, b) => a.cpuMs - b.cpuMs);
  const { stats, ms, cpuMs } = runs[2]!;
  const size = JSON.stringify(source).length;
  const added = JSON.stringify(stats).length;
  console.log(
    `${graded ? 'graded' : '0/1   '} metric: ${contenderCount} contenders × ${caseCount} cases, ` +
      `${stats.comparisons.length / 2} comparisons × 10,000 resamples: ${(ms / 1000).toFixed(2)} s ` +
      `(${(cpuMs / 1000).toFixed(2)} s of CPU, median of 5); ` +
      `snapshot +${((100 * added) / size).toFixed(2)} % (${added} of ${size} bytes)`,
  );
}

for (const repeats of [2, 3]) {
  const source = run(true, repeats);
  const size = JSON.stringify(source).length;
  const consistency = consistencyOf(source);
  const spreads = caseSpreads(source);
  // What the snapshot gains: `"spread":{…}` on each case, and `"spread":x` on each contender's consistency.
  const perCase = [...spreads.values()].reduce((sum, s) => sum + `,"spread":${JSON.stringify(s)}`.length, 0);
  const perContender = consistency.reduce((sum, c) => sum + `,"spread":${c.spread}`.length, 0);
  const added = perCase + perContender;
  console.log(
    `graded metric, --repeat ${repeats}: ${contenderCount} contenders × ${caseCount} cases: each case's spread ` +
      `adds ${((100 * added) / size).toFixed(2)} % to the snapshot (${added} of ${size} bytes, ` +
      `${spreads.size} cases with a spread)`,
  );
}
