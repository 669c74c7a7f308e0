import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { GateState } from '../core/coordinator.ts';
import { neverBackwards, type RunProgress } from '../core/progress.ts';
import { datasetSize, type RunInput } from '../core/run-input.ts';
import { renderProgress } from '../report/progress.ts';
import { silenceLines } from '../report/silence-line.ts';
import { SILENCE_FLOOR_MS } from '../core/silence.ts';
import { silentOf } from '../client/silence.ts';
import type { LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { RunResult } from '../client/runs.ts';
import { createSuiteWorker, taskQueueFor, type SuiteDeps, type SuiteWorker } from '../client/worker.ts';
import { LiveLines } from './live-lines.ts';
import { answerPause, type PausePolicy } from './pause.ts';
import { mark } from '../timing.ts';
import { trackerSuite } from './trackers.ts';

/** A suite loaded in this process, with the cases its worker serves. */
export interface Served {
  suite: LoadedSuite;
  cases: readonly LoadedCase[];
}

/** The worker's share of a loaded suite: its adapter, scorer, providers, cases and trackers, and the env of its keys. */
export function suiteDeps({ suite, cases }: Served, env: NodeJS.ProcessEnv): SuiteDeps {
  return {
    adapter: suite.adapter,
    scorer: suite.scorer,
    judges: suite.judges,
    registry: suite.registry,
    cases: new Map(cases.map((c) => [c.key, c])),
    trackers: trackerSuite(suite),
    env,
  };
}

/**
 * Creates the worker of a command that serves its own run (compare, run, resume) on the run's task queue, with the
 * suite's code, cases and trackers; its workflows run in this thread, which starts the run sooner. On the suite's
 * shared queue (a `start`ed run resumed) it polls as this checkout's build, as `llm-evals worker` does there.
 */
export function suiteWorker(
  link: TemporalLink,
  taskQueue: string,
  served: Served,
  env: NodeJS.ProcessEnv,
): Promise<SuiteWorker> {
  // Its worker reads each closed experiment's results to track it; the command's snapshot reads them again.
  link.runs.keepClosedResults();
  return createSuiteWorker(link, taskQueue, suiteDeps(served, env), {
    workflowsInProcess: true,
    project: served.suite.projectDir,
    versioned: taskQueue === taskQueueFor(served.suite.name, env),
  });
}

/**
 * What the progress view shows once the run has closed: each experiment's counts as the run returned them, without
 * asking a closed workflow (a query a worker would answer by replaying the whole run); every case done if the run
 * returned nothing it could say.
 */
export function closedProgress(runId: string, input: RunInput, result?: RunResult): RunProgress {
  const counts = new Map(result?.experiments.map((e) => [e.id, e]));
  return {
    runId,
    experiments: input.experiments.map((e) => {
      const total = datasetSize(input, e.dataset);
      const own = counts.get(e.id);
      if (!own) return { id: e.id, total, done: total, errors: 0, state: 'completed' as const };
      const state = own.cases < total ? ('stopped' as const) : ('completed' as const);
      return { id: e.id, total, done: own.cases, errors: own.errors, state };
    }),
  };
}

/** Each experiment's counts as a closed run returned them; undefined when it returned none for one of them. */
export function countedProgress(runId: string, input: RunInput, result: RunResult): RunProgress | undefined {
  const counted = new Set(result.experiments.map((e) => e.id));
  return input.experiments.every((e) => counted.has(e.id)) ? closedProgress(runId, input, result) : undefined;
}

/**
 * How long a stop waits for the calls in flight to finish and be recorded. A provider that hangs (or a server that
 * does not answer) would otherwise hold a Ctrl-C without end: the calls still out then are made again on resume.
 */
export const DRAIN_MS = 10_000;

/** What a Ctrl-C says while the calls in flight drain: how long at most, and the way out at once. */
export const STOPPING_LINE =
  `stopping: the calls in flight finish and are recorded first (up to ${DRAIN_MS / 1000} s; ` +
  'Ctrl-C again stops at once, and resume makes again any call not recorded)';

/** What the live view says while the server does not answer: since when, and what the user can do. */
export function unreachableLine(since: Date, runId: string): string {
  const at = since.toTimeString().slice(0, 8);
  return pc.yellow(
    `Temporal server unreachable since ${at}; waiting (Ctrl-C stops, \`llm-evals resume ${runId}\` continues later)`,
  );
}

/**
 * Runs the worker in this process and draws the run's progress until it closes or the user interrupts. While the
 * server does not answer it says so instead of drawing progress it cannot see, and waits for it to come back.
 * `underWay` is called once, at the first look at the run's progress, when its first calls are out.
 */
export async function serveRun(
  link: TemporalLink,
  worker: SuiteWorker,
  runId: string,
  input: RunInput,
  io: Io,
  policy: PausePolicy = 'stop',
  underWay?: () => void,
): Promise<'closed' | 'interrupted'> {
  const experiments = input.experiments.map((e) => ({ ...e, contender: input.contenders[e.contender]!.key }));
  const stderr = io.stderr as { isTTY?: boolean; columns?: number };
  const tty = Boolean(stderr.isTTY);
  const live = new LiveLines(io.stderr, tty, tty ? stderr.columns : undefined);
  let shown: RunProgress | undefined;
  /** Contenders whose calls have gone unanswered too long: drawn under the bars, said once where lines stay. */
  let silent: string[] = [];
  const draw = (progress: RunProgress) => {
    shown = neverBackwards(shown, progress);
    live.draw([...renderProgress(shown, experiments, input.contenders), ...(tty ? silent : [])]);
  };
  // A provider that hangs finishes nothing and fails nothing: once no case has finished for SILENCE_FLOOR_MS, the
  // pools' heartbeats are read (every 5 s) for when each contender's calls last answered.
  const stall = { done: -1, since: Date.now() };
  const lookForSilence = async (progress: RunProgress, tick: number): Promise<void> => {
    const done = progress.experiments.reduce((n, e) => n + e.done, 0);
    if (done !== stall.done) [stall.done, stall.since, silent] = [done, Date.now(), []];
    if (Date.now() - stall.since < SILENCE_FLOOR_MS || tick % 20 !== 0) return;
    const lines = silenceLines(await silentOf(link.client, runId, input).catch(() => []), Date.now());
    if (!tty && lines.length && !silent.length) io.stderr.write(lines.join('\n') + '\n');
    silent = lines;
  };
  const interrupt = io.watchInterrupt?.();
  const stop = new AbortController();
  if (interrupt?.aborted) stop.abort();
  else interrupt?.addEventListener('abort', () => stop.abort(), { once: true });
  let lostSince: Date | undefined;
  /** The server stopped answering: said once where lines cannot be redrawn, kept on screen where they can. */
  const lost = () => {
    if (!lostSince) {
      lostSince = new Date();
      if (!tty) io.stderr.write(unreachableLine(lostSince, runId) + '\n');
    }
    if (tty) live.draw([unreachableLine(lostSince, runId)]);
  };
  const found = () => {
    if (lostSince && !tty) {
      const seconds = Math.round((Date.now() - lostSince.getTime()) / 1000);
      io.stderr.write(`Temporal server back after ${seconds} s; the run goes on\n`);
    }
    lostSince = undefined;
  };
  let served!: (how: 'closed' | 'interrupted') => void;
  const ended = new Promise<'closed' | 'interrupted'>((resolve) => (served = resolve));
  const serving = worker.runUntil(async () => {
    let closed = false;
    let result: RunResult | undefined;
    const outcome = link.runs.closed(runId, stop.signal).then((returned) => {
      closed = !stop.signal.aborted;
      result = returned;
    });
    const stopped = new Promise<void>((resolve) =>
      stop.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    // What the loop waits for, unless the run closes or the command stops first: a query held behind its workflow's
    // task, or one of a workflow that has just closed, kept the toy suite's close unseen for 1.5-2 s in a run of 3.
    const over = Promise.race([outcome, stopped]).then((): typeof OVER => OVER);
    const unlessOver = <T>(work: Promise<T>) => Promise.race([work, over]);
    // Through the worker's look, which its calls share; a look that takes over 2 s is skipped.
    const readGate = (): Promise<GateState | undefined> =>
      Promise.race([
        worker.gate.state(runId).catch(() => undefined),
        sleep(GATE_LOOK_MS, undefined, { ref: false }),
      ]);
    for (let tick = 0; ; tick++) {
      // Each look waits a tick first: at the start the run's first workflow tasks are under way on this thread, and
      // the queries would only compete with them for it.
      await Promise.race([outcome, stopped, sleep(250)]);
      if (closed || stop.signal.aborted) break;
      try {
        const progress = await unlessOver(link.runs.progress(runId, 2000));
        if (progress === OVER) break;
        if ((await unlessOver(lookForSilence(progress, tick))) === OVER) break;
        draw(progress);
        underWay?.();
        underWay = undefined;
        // Its worker tracks each experiment as it closes, and the snapshot reads them all: read while they run.
        link.runs.follow(
          runId,
          progress.experiments.filter((e) => e.state === 'running').map((e) => e.id),
        );
        found();
      } catch {
        // Between runs of a continue-as-new a query can miss, and the next tick draws; a server that does not
        // answer is said as such.
        if ((await unlessOver(link.runs.reachable())) === false) lost();
      }
      const gate = !lostSince && tick % 4 === 0 ? await unlessOver(readGate()) : undefined;
      if (gate === OVER) break;
      // A Ctrl-C at the question stops the command, and leaves the run paused for `resume` to ask again.
      if (gate?.state === 'paused') await answerPause(link.runs, runId, gate, input, policy, io, stop.signal);
    }
    if (!closed) {
      io.stderr.write(
        lostSince
          ? 'stopping: calls in flight finish; those Temporal cannot record now are made again on resume\n'
          : `${STOPPING_LINE}\n`,
      );
      served('interrupted');
      return 'interrupted';
    }
    // A run that did not complete (failed, cancelled, terminated) says what it got to through its queries.
    draw(
      result
        ? closedProgress(runId, input, result)
        : await link.runs.progress(runId, 5000).catch(() => closedProgress(runId, input)),
    );
    served('closed');
    mark('closed seen');
    return 'closed';
  });
  // The worker's shutdown waits for its calls in flight, and for a server to record them: a provider that hangs, or a
  // server gone, would hold it without end. Once the calls had their time the command stops waiting; what they did
  // not record is made again on resume (at most repeated, never lost).
  const givenUp = ended.then(async (how) => {
    if (how !== 'interrupted') return new Promise<never>(() => {});
    await sleep(DRAIN_MS, undefined, { ref: false });
    io.stderr.write(
      `stopped waiting for the calls in flight after ${DRAIN_MS / 1000} s: resume makes them again\n`,
    );
    return how;
  });
  return Promise.race([serving, givenUp]);
}

/** How long the live view waits for a look at the gate before it goes on without one. */
const GATE_LOOK_MS = 2000;

/** What serveRun's loop gets instead of an answer when the run closed (or the command stopped) first. */
const OVER = Symbol('over');

/** Tells the user how to pick a run back up. */
export function resumeHint(runId: string): string {
  return `${pc.yellow('interrupted')}: the run goes on in Temporal; continue it with ${pc.bold(`llm-evals resume ${runId}`)}`;
}
