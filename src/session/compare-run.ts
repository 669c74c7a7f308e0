import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { beginRun } from './begin-run.ts';
import { pairUp } from './pairwise.ts';
import { planRun, sampleLine } from './plan-run.ts';
import { dryRun } from './dry-run.ts';
import type * as PresentModule from './present.ts';
import { shortPath } from '../suite/cases.ts';
import { mark } from '../timing.ts';
import { resolve } from 'node:path';
import { ConfigError, quote } from '../errors.ts';
import { withoutRepeat } from '../core/matrix.ts';
import { baselineProblem } from '../gate/verdict.ts';
import { writeWhole } from '../output/write-whole.ts';
import { noteCacheUse } from './cache-use.ts';
import type { RunRequest } from '../core/request.ts';

/**
 * `compare` and `run`: plans the request; a dry run prints the matrix and estimate, else the run is made, saved and
 * reported, and judged against its baseline when it names one. Returns the exit code.
 */
export async function compareRun(request: RunRequest, io: Io, command: 'run' | 'compare'): Promise<number> {
  const planned = await planRun(request, io);
  if (request.pairwise) pairUp(planned.plan, request.pairwise, planned.suite, request.cache === 'refresh');
  mark('planned');
  const { sample } = request.selection;
  if (sample) io.stderr.write(pc.yellow(sampleLine(planned, sample, io.columns)) + '\n');
  if (request.dryRun) return dryRun(planned, request, io);
  const { gate } = request;
  // The baseline is read before any call: one that cannot be read is bad input, and nothing is paid for. Without one
  // the gate's modules are not loaded.
  const gating = gate.baseline ? await import('./baseline.ts') : undefined;
  const baseline = gating && (await gating.readBaseline(gate.baseline!, planned.suite.projectDir, io));
  const problem =
    baseline &&
    baselineProblem(baseline, {
      cases: planned.cases.map((c) => c.key),
      contenders: planned.plan.contenders.map((c) => withoutRepeat(c).key),
    });
  if (problem) throw new ConfigError(undefined, '--baseline', `${quote(gate.baseline!)} ${problem}`);
  // The checks before any call (an empty cache under --cache-only, env files, beforeRun, verify's, the keys), then
  // Temporal's SDK loads and the run is made.
  const begun = await beginRun(planned, request, io);
  mark('begun');
  const { runPlanned } = await import('./run.ts');
  mark('run module');
  // What shows the run (its tables and HTML report) loads once the run's first calls are out, not before them.
  let presenting: Promise<typeof PresentModule> | undefined;
  const loadPresent = () => (presenting ??= import('./present.ts'));
  const { snapshot, file } = await runPlanned(planned, request, io, command, begun, () => {
    void loadPresent();
  });
  io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
  const { presentRun } = await loadPresent();
  const code = await presentRun(snapshot, file, planned.suite, request.show, io, {
    breakdown: command === 'run',
  });
  await noteCacheUse(snapshot, io);
  mark('presented');
  if (!gating || !baseline || snapshot.status !== 'completed') return code;
  const sampled = sample && planned.population ? { sample, population: planned.population } : undefined;
  const judged = gating.gateRun(baseline, snapshot, gate, io, sampled);
  if (gate.format) {
    const text = gate.format === 'markdown' ? judged.markdown : judged.junit();
    if (gate.output !== undefined) {
      const target = resolve(io.cwd, gate.output);
      writeWhole(target, text, 'run the compare again');
      io.stderr.write(`wrote ${shortPath(io.cwd, target)}\n`);
    } else io.stdout.write(text);
  }
  return judged.fails ? 1 : code;
}
