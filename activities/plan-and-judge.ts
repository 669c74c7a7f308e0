import { ApplicationFailure } from '@temporalio/activity';
import { diffRuns, type RunDigest, type ScoreRow } from '../src/core/run-change.ts';
import { judgeRegression } from '../src/core/schedule-verdict.ts';
import type { RunInput } from '../src/core/run-input.ts';
import type { RunSchedule, ScheduledRunSpec } from '../src/core/schedule-spec.ts';
import type { RunHeader } from '../src/core/snapshot.ts';
import { contenderName } from '../src/report/columns.ts';

/** A scheduled run as planned when its schedule fired: what its workflows receive and record. */
export interface PlannedFire {
  input: RunInput;
  header: RunHeader;
}

/** What the schedule's activities need: a planner (only `llm-evals worker` has one) and reads of runs in Temporal. */
export interface ScheduleDeps {
  /** Plans a run from the suite as it is on disk now, under the given run id. */
  planFire?: (spec: ScheduledRunSpec, runId: string) => Promise<PlannedFire>;
  /** The newest run of a schedule that completed (or regressed); none before the first. */
  previousRun?: (scheduleId: string) => Promise<string | undefined>;
  /** A run's figures per contender and dataset, read from its results in Temporal. */
  digest?: (runId: string) => Promise<RunDigest>;
}

/** How a scheduled run was judged: its figures (for the schedule's trend) and why it regressed, if it did. */
export interface Judged {
  scores: ScoreRow[];
  regression: string[];
}

/** A worker built without a client (a test's) cannot read runs: another worker of the queue will. */
function reads(deps: ScheduleDeps) {
  const { previousRun, digest } = deps;
  if (!previousRun || !digest) throw ApplicationFailure.retryable('this worker cannot read runs', 'NoReader');
  return { previousRun, digest };
}

const isConfigError = (error: unknown) => (error as { type?: unknown } | null)?.type === 'ConfigError';

/** Builds the activities of scheduled runs: plan at the fire, judge against the previous run at the end. */
export function createScheduleActivities(deps: ScheduleDeps) {
  return {
    planScheduledRun: async ({
      spec,
      runId,
    }: {
      spec: ScheduledRunSpec;
      runId: string;
    }): Promise<PlannedFire> => {
      if (!deps.planFire) {
        // Retryable: `llm-evals worker` on the same queue can plan it.
        throw ApplicationFailure.retryable('this worker cannot plan scheduled runs', 'NoPlanner');
      }
      const previousRunId = await reads(deps).previousRun(spec.schedule.id);
      let planned: PlannedFire;
      try {
        planned = await deps.planFire(spec, runId);
      } catch (error) {
        if (!isConfigError(error)) throw error;
        throw ApplicationFailure.nonRetryable((error as Error).message, 'ConfigError');
      }
      const schedule: RunSchedule = {
        id: spec.schedule.id,
        name: spec.schedule.name,
        ...(previousRunId ? { previousRunId } : {}),
        ...(spec.maxDrop !== undefined ? { maxDrop: spec.maxDrop } : {}),
        ...(spec.minScore !== undefined ? { minScore: spec.minScore } : {}),
      };
      return { input: { ...planned.input, schedule }, header: { ...planned.header, schedule } };
    },

    judgeRun: async ({ runId, schedule }: { runId: string; schedule: RunSchedule }): Promise<Judged> => {
      const { digest } = reads(deps);
      const after = await digest(runId);
      const before = schedule.previousRunId ? await digest(schedule.previousRunId) : undefined;
      const change = before ? diffRuns(before, after) : undefined;
      const names = new Map([...(before?.contenders ?? []), ...after.contenders].map((c) => [c.key, c]));
      const label = (key: string) => {
        const c = names.get(key);
        return c ? contenderName(c) : key;
      };
      return { scores: after.rows, regression: judgeRegression(after, change, schedule, label).reasons };
    },
  };
}
