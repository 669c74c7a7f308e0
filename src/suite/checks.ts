import type { Provider } from '../api/types.ts';
import { shortPath, type CaseProblem, type LoadedCase } from './cases.ts';
import type { LoadedSuite } from './load.ts';
import { tcpProbe } from '../tcp-probe.ts';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A provider that can say, without a call, whether the endpoint it talks to answers at all. */
export interface Reachable {
  /** The endpoint's address, to try a connection to (an endpoint section's `base_url`). */
  endpoint(): string | undefined;
}

const reachable = (provider: Provider): provider is Provider & Reachable =>
  typeof (provider as Partial<Reachable>).endpoint === 'function';

/** Whether a TCP connection to the URL's host and port opens within `timeoutMs`; the reason when it does not. */
function tryConnect(url: string, timeoutMs: number): Promise<string | undefined> {
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  return tcpProbe({ host, port: Number(port || (protocol === 'https:' ? 443 : 80)) }, timeoutMs);
}

/**
 * What `verify` checks, and what `compare`, `run` and `start` check before any call: the cases load, the adapter's
 * and scorer's own checks pass for each dataset and each expected answer, the keys the providers need are set, and
 * each local endpoint the run would call accepts a connection. One line per problem; empty when all is well.
 */
export async function suiteProblems(
  suite: LoadedSuite,
  cases: readonly LoadedCase[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    loadProblems?: readonly CaseProblem[];
    providers?: string[];
  },
): Promise<string[]> {
  const where = (path: string) => shortPath(options.cwd, path);
  const problems = (options.loadProblems ?? []).map((p) => `${where(p.file)}: ${p.problem}`);
  for (const dataset of [...new Set(cases.map((c) => c.dataset))]) {
    try {
      await suite.adapter.prepare(dataset);
      for (const p of await suite.adapter.verify(dataset)) problems.push(`dataset ${dataset}: ${p}`);
    } catch (error) {
      problems.push(`dataset ${dataset}: the adapter's check failed: ${message(error)}`);
    }
  }
  for (const kase of cases) {
    try {
      for (const p of suite.scorer.verify(kase, suite.adapter.context(kase))) {
        problems.push(`${where(kase.path)}/expected.json: ${p}`);
      }
    } catch (error) {
      problems.push(`${kase.key}: the scorer's check failed: ${message(error)}`);
    }
  }
  problems.push(...missingKeys(suite, options.providers ?? [], options.env));
  const providers = (options.providers ?? []).flatMap((name) => suite.registry.get(name) ?? []);
  const endpoints = providers.filter(reachable).flatMap((p) => {
    const url = p.endpoint();
    return url ? [{ name: p.name, url }] : [];
  });
  const answers = await Promise.all(endpoints.map(({ url }) => tryConnect(url, 3000)));
  endpoints.forEach(({ name, url }, i) => {
    if (answers[i]) problems.push(`${name}: ${url} is not reachable (${answers[i]})`);
  });
  return problems;
}

/** The keys the named providers need and the environment lacks (P5), one line each naming the variable. */
export function missingKeys(
  suite: LoadedSuite,
  providers: readonly string[],
  env: NodeJS.ProcessEnv,
): string[] {
  return providers.flatMap((name) =>
    (suite.registry.get(name)?.envKeys ?? [])
      .filter((key) => !env[key])
      .map((key) => `${key}: not set, and provider ${name} needs it (export it, or put it in an env file)`),
  );
}
