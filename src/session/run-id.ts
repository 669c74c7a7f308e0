/** The timestamp used in run ids and in log and snapshot file names. */
export function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** A new run id: sortable by time, unique enough to name workflows. */
export function newRunId(now: Date = new Date()): string {
  return `${stamp(now)}-${Math.random().toString(36).slice(2, 6)}`;
}
