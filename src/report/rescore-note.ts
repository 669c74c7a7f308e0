import type { Snapshot } from '../core/snapshot.ts';

/** The line a rescored run's reports open with, naming the run whose replies were graded again; none otherwise. */
export function rescoreNote(snapshot: Snapshot): string | undefined {
  const of = snapshot.rescoreOf;
  if (!of) return undefined;
  const from = of.file ? ` (${of.file})` : '';
  return (
    `Rescore of run ${of.runId}${from}: its saved replies graded again on ${of.rescoredAt.slice(0, 19).replace('T', ' ')} ` +
    "UTC with the suite's scorer and weights of that moment; no model was called."
  );
}
