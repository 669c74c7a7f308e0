import pc from 'picocolors';
import type { TemporalLink } from '../client/connect.ts';
import type { RunRecord } from '../client/runs.ts';
import { currentUnlessSet, describeBuild, type Build } from '../client/versioning.ts';
import type { Io } from '../cli/io.ts';

// What `status` and `resume` say of a run's build under Worker Versioning, in the same words.

/** The build a pinned run stays on, and whether a worker of it polls: what `status` says of Worker Versioning. */
export function buildLine(build: Build & { polling: number }, closed: boolean): string {
  const pinned = `pinned to ${describeBuild(build)}`;
  if (closed) return `${pinned}\n`;
  return build.polling > 0
    ? `${pinned}, ${build.polling} worker(s) of it polling\n`
    : `${pinned}, ${pc.yellow('no worker of that build polls')} (start \`llm-evals worker\` from a checkout at that build)\n`;
}

/**
 * With Worker Versioning, whether this resume's worker can serve the run: one pinned to another build waits for a
 * worker of that build, said in `status`'s words and with what to do; one not pinned goes to the deployment's current
 * version, which this build becomes when there is none or no worker of it polls (said when it stays another's).
 */
export async function sayBuild(
  link: TemporalLink,
  runId: string,
  record: RunRecord,
  own: Build,
  io: Io,
): Promise<void> {
  const pinned = record.build;
  // A closed run needs no worker: nothing to say, and no current version to set for it.
  if (record.closed) return;
  if (pinned) {
    if (pinned.deploymentName === own.deploymentName && pinned.buildId === own.buildId) return;
    const polling = (await link.runs.buildPollers(record.taskQueue, pinned)).length;
    io.stderr.write(buildLine({ ...pinned, polling }, false));
    return;
  }
  void currentUnlessSet(link.client, own, record.taskQueue)
    .then((current) => {
      if (current !== own.buildId)
        io.stderr.write(
          `run ${runId} is not pinned: it goes to ${describeBuild({ ...own, buildId: current })}, ` +
            `the current version, whose workers serve it (this checkout is build ${own.buildId})\n`,
        );
    })
    .catch(() => undefined);
}
