import {
  ParentClosePolicy,
  executeChild,
  proxyActivities,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { newGate } from '../src/core/coordinator.ts';
import { gateWorkflowId, runWorkflowId } from '../src/core/run-input.ts';
import { scheduledRunId } from '../src/core/run-input.ts';
import type { ScheduledRunSpec } from '../src/core/schedule-spec.ts';
import { compareRun, WORK_HEARTBEAT_TIMEOUT, type RunResult } from './compare-run.ts';
import { runGate } from './run-gate.ts';

/** Plans on a worker of the suite, which reads its lineup and cases as they are on disk when the schedule fires. */
const { planScheduledRun } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // A worker killed while it plans is noticed by its silence (activities/heartbeat.ts).
  heartbeatTimeout: WORK_HEARTBEAT_TIMEOUT,
  // A broken lineup or case is the user's to mend: the fire fails at once and `schedule show` says why.
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['ConfigError'] },
});

/**
 * What a schedule starts at each fire: plans the run when it fires, then runs it exactly as `start` does — the
 * same gate and run workflows, with ids derived from the run id, tagged with the schedule so it finds its runs.
 */
export async function scheduledRun(spec: ScheduledRunSpec): Promise<RunResult> {
  const info = workflowInfo();
  const runId = scheduledRunId(new Date(), info.runId);
  const { input, header } = await planScheduledRun({ spec, runId });
  // Abandoned, so that a run and its gate live on whatever happens to this workflow; `cancel RUN` reaches them.
  const abandon = ParentClosePolicy.ABANDON;
  await startChild(runGate, {
    workflowId: gateWorkflowId(runId),
    args: [newGate(input.limits, input.abortAfter)],
    searchAttributes: { LlmEvalsRunId: [runId] },
    parentClosePolicy: abandon,
  });
  return executeChild(compareRun, {
    workflowId: runWorkflowId(runId),
    args: [input],
    memo: { header },
    searchAttributes: {
      LlmEvalsRunId: [runId],
      LlmEvalsSuite: [input.suite],
      LlmEvalsState: ['running'],
      LlmEvalsProject: [spec.schedule.project],
      LlmEvalsSchedule: [spec.schedule.id],
    },
    parentClosePolicy: abandon,
  });
}
