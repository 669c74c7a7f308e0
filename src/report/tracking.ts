import pc from 'picocolors';
import type { Snapshot } from '../core/snapshot.ts';

/** The remote tracker's pages of a run, each once (Braintrust has one for the whole run). */
export function trackerPages(snapshot: Snapshot): string[] {
  const pages = Object.values(snapshot.links ?? {}).filter((link) => /^https?:\/\//.test(link));
  return [...new Set(pages)];
}

/**
 * What a command says of a run's trackers: the remote tracker's pages, and the experiments it failed to record with
 * how to send them again. Empty when there is nothing to say.
 */
export function renderTracking(snapshot: Snapshot): string[] {
  const lines = trackerPages(snapshot).map((page) => `${snapshot.tracker ?? 'tracker'}: ${page}`);
  const problems = snapshot.trackerProblems ?? [];
  if (problems.length > 0) {
    const tracker = problems[0]!.tracker;
    const count = `${problems.length} experiment${problems.length > 1 ? 's' : ''}`;
    lines.push(
      pc.yellow(
        `warning: the ${tracker} tracker did not record ${count}; the run itself is complete. ` +
          `Send it again with: llm-evals track ${snapshot.runId}`,
      ),
    );
    const reasons = [...new Set(problems.map((p) => p.message))];
    for (const reason of reasons.slice(0, 3)) lines.push(pc.yellow(`  ${reason}`));
    if (reasons.length > 3) lines.push(pc.yellow(`  …and ${reasons.length - 3} more`));
  }
  return lines;
}
