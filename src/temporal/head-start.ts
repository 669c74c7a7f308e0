import { HeadStart } from '../../activities/head-start.ts';
import type { Plan } from '../core/plan.ts';
import { currentServer } from '../../temporal/server-record.ts';
import { toRunInput } from '../core/run-input.ts';
import { processReplyCache } from './reply-cache.ts';
import { headStartCases } from '../core/run-schedule.ts';
import type { Tracking } from '../core/tracking.ts';
import type { LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { userStateDir } from '../dirs.ts';
import { tcpProbe } from '../tcp-probe.ts';
import { isEngineTraced } from './engine-tracing.ts';
import { hostAndPort, wantsTls } from './tls-probe.ts';

/** How long the look at `TEMPORAL_ADDRESS` may take before the first calls wait for the run instead. */
const PROBE_MS = 500;

/**
 * Whether the server that will record a run is there already: the embedded server recorded as running, or a plaintext
 * `TEMPORAL_ADDRESS` that takes connections. Calls started before the run is made would be paid for nothing if it
 * never came; with TLS or an API key only the SDK's handshake can say, so those runs' calls wait for it.
 */
async function serverIsThere(env: NodeJS.ProcessEnv): Promise<boolean> {
  const address = env.TEMPORAL_ADDRESS;
  if (!address) return (await currentServer(userStateDir(env))) !== undefined;
  return !wantsTls(env) && (await tcpProbe(hostAndPort(address), PROBE_MS)) === undefined;
}

/**
 * Starts a fresh run's first calls (headStartCases) in this process, whose worker will serve the run, while Temporal's
 * SDK loads and the run is made; none when the server is not there yet, when the engine is traced (OTLP), or with
 * `LLM_EVALS_HEAD_START=0`. Call it only once every check before a run has passed: these calls are paid.
 */
export async function startHeadStart(run: {
  runId: string;
  plan: Plan;
  tracking: Tracking;
  suite: LoadedSuite;
  cases: readonly LoadedCase[];
  env: NodeJS.ProcessEnv;
}): Promise<HeadStart | undefined> {
  // A traced run shows each call under its pool's activity: its calls wait for their pools.
  if (run.env.LLM_EVALS_HEAD_START === '0' || isEngineTraced(run.env)) return undefined;
  const input = toRunInput(run.runId, run.plan, run.tracking);
  const cases = headStartCases(input);
  if (cases.length === 0 || !(await serverIsThere(run.env))) return undefined;
  const { adapter, scorer, registry } = run.suite;
  const byKey = new Map(run.cases.map((c) => [c.key, c]));
  // Its calls ask the reply cache first, as the run's own do, under the mode the run was planned with.
  const settings = run.plan.settings;
  const replies = processReplyCache({ inputOf: () => Promise.resolve({ header: { settings } }) }, run.env);
  const deps = { adapter, scorer, registry, cases: byKey, replies };
  return new HeadStart(run.runId, deps, cases, input.parallelism);
}

export type { HeadStart };
