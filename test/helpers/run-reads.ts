import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from './cli.ts';

// A run read as a user reads it, through the real CLI: its report and its status, polled until a state; the calls
// and outcomes a report holds, to compare two runs; and `once`, which lets concurrent tests share one run.

/** The part of a snapshot these tests read. */
export interface RunReport {
  runId: string;
  status: string;
  contenders: { key: string; id: string }[];
  experiments: { id: string; contender: string; dataset: string; caseKeys: string[] }[];
  results: { experimentId: string; caseKey: string; status: string; score: number | null }[];
}

/** `report RUN --format json` through the real CLI: the snapshot, and what it said on stderr. */
export async function reportOf(
  dir: string,
  env: NodeJS.ProcessEnv,
  runId: string,
): Promise<{ report: RunReport; stderr: string }> {
  const { code, stdout, stderr } = await runCli(['report', runId, '--format', 'json'], { cwd: dir, env });
  // A run that did not complete (cancelled, aborted) reports what finished and exits 1, as its compare did.
  const report = code === 0 || code === 1 ? (JSON.parse(stdout || 'null') as RunReport | null) : null;
  const complete = report?.status === 'completed' || report?.status === 'partial';
  if (!report || (code === 1) === complete) throw new Error(`report ${runId} exited ${code}:\n${stderr}`);
  return { report, stderr };
}

/** What `status RUN --json` prints. */
export interface RunStatus {
  runId: string;
  state: string;
  done: number;
  total: number;
  experiments: { id: string; done: number; total: number; state: string }[];
}

/** `status RUN --json` through the real CLI. */
export async function statusOf(dir: string, env: NodeJS.ProcessEnv, runId: string): Promise<RunStatus> {
  const { code, stdout, stderr } = await runCli(['status', runId, '--json'], { cwd: dir, env });
  if (code !== 0 && !stdout.trim().startsWith('{'))
    throw new Error(`status ${runId} exited ${code}:\n${stderr}`);
  return JSON.parse(stdout) as RunStatus;
}

/**
 * Polls `status RUN --json` until the run is in `state` (and `also` holds of its status, when given); throws with the
 * last status after `timeoutMs`.
 */
export async function waitForState(
  dir: string,
  env: NodeJS.ProcessEnv,
  runId: string,
  state: string,
  timeoutMs = 120_000,
  also: (status: RunStatus) => boolean = () => true,
): Promise<RunStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await statusOf(dir, env, runId);
    if (status.state === state && also(status)) return status;
    if (Date.now() > deadline)
      throw new Error(`run ${runId} not ${state} in ${timeoutMs} ms: ${JSON.stringify(status)}`);
    await sleep(500);
  }
}

/** The `<model> <case key>` call each result of a report comes from, as the record file names calls. */
export function callsOf(report: RunReport): string[] {
  const ids = new Map(report.contenders.map((c) => [c.key, c.id]));
  const model = new Map(report.experiments.map((e) => [e.id, ids.get(e.contender)]));
  return report.results.map((r) => `${model.get(r.experimentId)} ${r.caseKey}`);
}

/** Each result of a report as `<model> <case key>` → `<status> <score>`, so two runs of the suite compare with toEqual. */
export function outcomes(report: RunReport): Record<string, string> {
  const contender = new Map(report.experiments.map((e) => [e.id, e.contender]));
  return Object.fromEntries(
    report.results
      .map((r) => [`${contender.get(r.experimentId)} ${r.caseKey}`, `${r.status} ${r.score}`] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Memoises `make()`, so concurrent tests share one run of it; a rejection goes to the tests awaiting it, never unhandled. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    if (!made) {
      made = make();
      made.catch(() => undefined);
    }
    return made;
  };
}
