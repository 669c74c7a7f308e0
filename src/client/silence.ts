import type { Client } from '@temporalio/client';
import { experimentWorkflowId, type RunInput } from '../core/run-input.ts';
import { silentContenders, type PoolBeat, type Silence } from '../core/silence.ts';
import { pendingWork } from './cancel-wait.ts';

/**
 * The contenders of a running run whose calls have gone unanswered too long (`silentContenders`), from its pools'
 * heartbeats; none for a closed run.
 */
export async function silentOf(client: Client, runId: string, input: RunInput): Promise<Silence[]> {
  const { pending } = await pendingWork(client, runId);
  const contenderOf = new Map(
    input.experiments.map((e) => [experimentWorkflowId(runId, e.id), input.contenders[e.contender]!.id]),
  );
  const beats = pending.flatMap((work): PoolBeat[] => {
    const contender = work.workflowId && contenderOf.get(work.workflowId);
    if (work.type !== 'runCases' || !contender || work.answeredAt === undefined) return [];
    return [
      { contender, calls: work.calls ?? 0, answeredAt: work.answeredAt, slowestMs: work.slowestMs ?? 0 },
    ];
  });
  return silentContenders(beats, Date.now());
}
