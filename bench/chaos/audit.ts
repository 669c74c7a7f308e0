// The chaos bench's audit: what the recording and the run's report say of each interruption and of the whole run.
import { join } from 'node:path';
import type { ChaosOptions } from './options.ts';
import { DURABLE_MS, logDir, recordFile, stateDir, suiteDir } from './options.ts';
import type { Worker } from './processes.ts';
import type { Call, Recording } from './recording.ts';

/** A worker's or the server's SIGKILL, and when what was killed was back. */
export interface Interruption {
  what: string;
  at: number;
  /** Until the fresh worker was started, or the server answered again. */
  backAt: number;
}

/** What the bench reads of `report RUN --format json`. */
export interface RunReport {
  runId: string;
  status: string;
  contenders: { key: string; id: string }[];
  experiments: { id: string; contender: string; dataset: string; caseKeys: string[] }[];
  results: { experimentId: string; caseKey: string; status: string }[];
}

/** A plain table: the first `left` columns padded on the right, the rest on the left. */
function table(head: string[], rows: string[][], left = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [head, ...rows]
    .map((row) =>
      row.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

/**
 * Prints the audit of a finished run on stdout: per interruption, the calls in flight, those finished in the second
 * before, the calls repeated because of it and how long calls stopped; per worker, its calls; then the totals, the
 * anomalies and the verdict. Returns the exit code: 0 when the run completed with no case lost, else 1.
 */
export function printResults(
  options: ChaosOptions,
  workers: readonly Worker[],
  runId: string,
  report: RunReport,
  recording: Recording,
  interruptions: Interruption[],
  anomalies: string[],
  startedAt: number,
  finishedAt: number,
): number {
  const at = (t: number) => ((t - startedAt) / 1000).toFixed(1);
  const calls = recording.calls;
  const modelOf = new Map(report.contenders.map((c) => [c.key, c.id]));
  const planned = report.experiments.flatMap((e) =>
    e.caseKeys.map((k) => `${modelOf.get(e.contender)} ${k}`),
  );
  const modelOfExperiment = new Map(report.experiments.map((e) => [e.id, modelOf.get(e.contender)]));
  const resulted = new Map<string, number>();
  for (const r of report.results) {
    const name = `${modelOfExperiment.get(r.experimentId)} ${r.caseKey}`;
    resulted.set(name, (resulted.get(name) ?? 0) + 1);
  }
  const lost = planned.filter((p) => !resulted.has(p));
  const doubleResults = [...resulted.values()].filter((n) => n > 1).length;
  const statuses = new Map<string, number>();
  for (const r of report.results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);

  const byCase = new Map<string, Call[]>();
  for (const call of calls) byCase.set(call.case, [...(byCase.get(call.case) ?? []), call]);
  const neverCalled = planned.filter((p) => !byCase.has(p)).length;
  const repeatedCases = [...byCase.values()].filter((list) => list.length > 1);

  // A call cut by its worker's death ends at the kill, and was running at it.
  const runningAt = (c: Call, t: number) =>
    c.end === undefined || c.end > t || (c.cut === true && c.end === t);
  // Each repeat is charged to the first interruption after the call it repeats had started: that call was in flight
  // then, had finished within DURABLE_MS before it (not yet durable), or had finished earlier (it should have been).
  const rows = interruptions.map(() => ({ flight: 0, recent: 0, older: 0 }));
  let unexplained = 0;
  for (const list of repeatedCases) {
    list.sort((a, b) => a.start - b.start);
    for (let k = 1; k < list.length; k++) {
      const prev = list[k - 1]!;
      const i = interruptions.findIndex((x) => x.at >= prev.start);
      if (i < 0 || list[k]!.start < interruptions[i]!.at) {
        unexplained++;
        continue;
      }
      const at = interruptions[i]!.at;
      if (runningAt(prev, at)) rows[i]!.flight++;
      else if ((prev.end ?? 0) > at - DURABLE_MS) rows[i]!.recent++;
      else rows[i]!.older++;
    }
  }
  const lastEnd = Math.max(...calls.map((c) => c.end ?? c.start));
  const firstStart = calls[0]?.start ?? 0;
  const starts = calls.map((c) => c.start).sort((a, b) => a - b);
  const interruptionRows = interruptions.map((x, i) => {
    const inFlight = calls.filter((c) => c.start <= x.at && runningAt(c, x.at)).length;
    const recent = calls.filter(
      (c) => c.end !== undefined && !c.cut && c.end <= x.at && c.end > x.at - DURABLE_MS,
    ).length;
    const next = starts.find((t) => t > x.at);
    // The longest stretch without a new call, from the kill to the next interruption (or the end of the run).
    const until = interruptions[i + 1]?.at ?? lastEnd;
    let gap = 0;
    let previous = x.at;
    for (const t of starts) {
      if (t <= x.at || t > until) continue;
      gap = Math.max(gap, t - previous);
      previous = t;
    }
    gap = Math.max(gap, until - previous);
    const r = rows[i]!;
    const repeated = r.flight + r.recent + r.older;
    const excess = Math.max(0, repeated - inFlight - recent);
    if (excess)
      anomalies.push(`interruption ${i + 1}: ${excess} call(s) repeated beyond in flight + done <1s`);
    if (r.older)
      anomalies.push(`interruption ${i + 1}: ${r.older} call(s) repeated that had returned over 1 s before`);
    return [
      `${i + 1}. SIGKILL ${x.what}`,
      at(x.at),
      String(inFlight),
      String(recent),
      String(repeated),
      `${r.flight}/${r.recent}/${r.older}`,
      excess ? `${excess} ⚠` : '0',
      ((x.backAt - x.at) / 1000).toFixed(1),
      next === undefined ? '-' : ((next - x.at) / 1000).toFixed(1),
      (gap / 1000).toFixed(1),
    ];
  });

  const out: string[] = [];
  out.push(
    `chaos bench: run ${runId}, ${options.cases} cases in ${report.experiments.length} experiment(s), -p ${options.parallelism}, ` +
      `${options.latencyMs} ms per call, worker SIGKILLed every ${options.killEveryMs / 1000} s, server SIGKILLed once`,
    '',
  );
  out.push(
    table(
      [
        'interruption',
        'at s',
        'in flight',
        'done <1s',
        'repeated',
        'flight/<1s/older',
        'excess',
        'down s',
        'next call s',
        'max gap s',
      ],
      interruptionRows,
    ),
  );
  out.push(
    '',
    '  at s: since `start --no-worker`; in flight: calls started and not returned at the kill; done <1s: calls returned in',
    '  the second before it; repeated: calls made again because of it (the repeated call was in flight / done <1s /',
    '  done earlier); excess: repeats beyond in flight + done <1s; down s: until a fresh worker was started or the',
    '  server answered again; next call s: until the next call started; max gap s: the longest time with no new call',
    '  before the next interruption.',
    '',
  );
  const workerRows = workers.map((w) => {
    const mine = calls.filter((c) => c.pid === w.pid);
    const ended = w.killedAt
      ? `SIGKILL at ${at(w.killedAt)}`
      : w.exited
        ? `exit ${w.exited.code ?? w.exited.signal} at ${at(w.exited.at)}`
        : 'running';
    return [
      `#${w.index}`,
      String(w.pid),
      at(w.spawnedAt),
      mine[0] ? ((mine[0].start - w.spawnedAt) / 1000).toFixed(1) : '-',
      String(mine.length),
      ended,
    ];
  });
  out.push(table(['worker', 'pid', 'started s', 'first call after s', 'calls', 'ended'], workerRows, 2), '');
  const wall = (finishedAt - startedAt) / 1000;
  const span = (lastEnd - firstStart) / 1000;
  const ideal = (options.cases * options.latencyMs) / options.target / 1000;
  const totals: [string, string][] = [
    ['run status (report)', report.status],
    ['cases planned', String(planned.length)],
    [
      'results in report',
      `${report.results.length} (${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')})`,
    ],
    [
      'cases lost (no result)',
      String(lost.length) + (lost.length ? ` ⚠ e.g. ${lost.slice(0, 5).join(', ')}` : ''),
    ],
    ['cases with two results', String(doubleResults)],
    ['calls made', String(calls.length)],
    ['cases called', `${byCase.size} (never called: ${neverCalled})`],
    [
      'cases called more than once',
      `${repeatedCases.length} (${calls.length - byCase.size} extra calls, at most ${Math.max(1, ...repeatedCases.map((l) => l.length))} calls per case)`,
    ],
    ['repeats with no interruption', String(unexplained) + (unexplained ? ' ⚠' : '')],
    [
      'interruptions',
      `${interruptions.length} (${interruptions.filter((x) => x.what === 'server').length} server)`,
    ],
    ['workers started', String(workers.length)],
    ['wall time', `${wall.toFixed(1)} s (start --no-worker to the last worker's exit)`],
    ['first call to last', `${span.toFixed(1)} s (no kills, at full speed: ${ideal.toFixed(1)} s)`],
    [
      'cases/s',
      `${(options.cases / wall).toFixed(1)} over the wall time, ${(options.cases / span).toFixed(1)} first call to last`,
    ],
    ['calls per case', (calls.length / options.cases).toFixed(3)],
  ];
  const width = Math.max(...totals.map(([k]) => k.length));
  for (const [k, v] of totals) out.push(`${k.padEnd(width)}  ${v}`);
  for (const a of anomalies) out.push(`⚠ ${a}`);
  const ok = report.status === 'completed' && lost.length === 0;
  out.push(
    '',
    ok
      ? 'OK: the run completed and no case was lost'
      : 'FAILED: the run did not complete, or cases were lost',
  );
  console.log(out.join('\n'));
  process.stderr.write(
    `record: ${recordFile}; logs: ${logDir}, ${join(stateDir, 'server.log')}, ${join(suiteDir, 'log')}\n`,
  );
  return ok ? 0 : 1;
}
