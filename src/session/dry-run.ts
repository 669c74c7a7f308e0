import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { clustersOfCases } from '../core/cluster-se.ts';
import type { RunRequest } from '../core/request.ts';
import { loadEnvFiles } from '../suite/load.ts';
import { estimateJudge, estimateRun, maxTokensWarnings, previousSpread } from './estimate-run.ts';
import type { PlannedRun } from './plan-run.ts';
import { checkBeforeRun } from './prepare.ts';

/**
 * `-n` of `compare`, `run` and `start`: the expanded matrix, its estimate and what it can tell apart, then the checks
 * the run would make. Nothing is called and no run is started.
 */
export async function dryRun(planned: PlannedRun, request: RunRequest, io: Io): Promise<number> {
  for (const warning of maxTokensWarnings(planned)) io.stderr.write(pc.yellow(`warning: ${warning}`) + '\n');
  const { renderMatrix } = await import('../report/matrix-table.ts');
  io.stdout.write(renderMatrix(planned.plan, await estimateRun(planned), { width: io.columns }) + '\n');
  const { renderDetectableLine, renderJudgeEstimate } = await import('../report/estimate-line.ts');
  const judge = await estimateJudge(planned);
  if (judge) {
    const { wrapProse } = await import('../report/text-width.ts');
    io.stdout.write(wrapProse(renderJudgeEstimate(judge.load, judge.estimate), io.columns, 2) + '\n');
  }
  const cases = new Set(planned.plan.experiments.flatMap((e) => e.caseKeys)).size;
  const { clustering } = clustersOfCases(planned.cases);
  io.stdout.write(renderDetectableLine(cases, previousSpread(planned), io.columns, clustering) + '\n');
  // The checks the run would make before any call, with its exit code: a dry run that passes is one that can go.
  loadEnvFiles(planned.suite.root, planned.suite.envFiles, io.env);
  await checkBeforeRun(planned, request.checks, io);
  return 0;
}
