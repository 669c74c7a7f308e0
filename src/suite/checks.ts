import type { Provider } from '../api/types.ts';
import { shortPath, type CaseProblem, type LoadedCase } from './cases.ts';
import type { LoadedSuite } from './load.ts';
import { tcpProbe } from '../tcp-probe.ts';
import { nearest, quote } from '../errors.ts';
import { listsModels, servesModel } from '../providers/served-models.ts';
import { probesTools } from '../providers/tool-support.ts';

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
 * and scorer's own checks pass for each dataset and each expected answer, the scorer grades each expected answer
 * given as the reply without throwing, the keys the providers need are set, and each local endpoint the run would
 * call accepts a connection. One line per problem; empty when all is well.
 */
export async function suiteProblems(
  suite: LoadedSuite,
  cases: readonly LoadedCase[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    loadProblems?: readonly CaseProblem[];
    providers?: string[];
    /** The lineup's models the run would call: each must be among those its endpoint lists, when it lists any. */
    models?: readonly { provider: string; model: string; configKey?: string }[];
    /** The contenders (the models the adapter calls, not a judge): asked whether they take tools when cases expect calls. */
    contenders?: readonly { provider: string; model: string }[];
    /** Where what is worth a look but stops nothing goes: expected answers the scorer does not give full marks. */
    warnings?: string[];
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
  const low: string[] = [];
  for (const kase of cases) {
    try {
      const found = suite.scorer.verify(kase, suite.adapter.context(kase));
      for (const p of found) problems.push(`${where(kase.path)}/expected.json: ${p}`);
      if (found.length > 0) continue;
    } catch (error) {
      problems.push(`${kase.key}: the scorer's check failed: ${message(error)}`);
      continue;
    }
    const grade = await gradeExpected(suite, kase);
    if (typeof grade === 'string') problems.push(grade);
    else if (!(grade >= 1)) low.push(`${kase.key} (${(grade * 100).toFixed(1)}%)`);
  }
  if (low.length > 0) {
    const more = low.length > 3 ? ` and ${low.length - 3} more` : '';
    options.warnings?.push(
      `the scorer gives ${low.length === 1 ? 'a case its own expected answer' : `${low.length} cases their own expected answers`} ` +
        `less than full marks: ${low.slice(0, 3).join(', ')}${more} (a scorer bug, or a wrong expected value?)`,
    );
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
  const unreachable = new Set(endpoints.filter((_, i) => answers[i]).map((e) => e.name));
  problems.push(...(await unservedModels(suite, options.models ?? [], unreachable, where)));
  if (cases.some(expectsToolCalls))
    problems.push(...(await toolRefusals(suite, options.contenders ?? [], unreachable, where)));
  return problems;
}

const expectsToolCalls = (kase: LoadedCase): boolean =>
  kase.expected !== null &&
  typeof kase.expected === 'object' &&
  !Array.isArray(kase.expected) &&
  Array.isArray(kase.expected.tool_calls);

/**
 * One problem per contender whose endpoint refuses tools, for a suite whose cases expect tool calls: a probe of one
 * token per model, so a model without tools is named before the run instead of failing every case with a 400.
 */
async function toolRefusals(
  suite: LoadedSuite,
  contenders: readonly { provider: string; model: string }[],
  unreachable: ReadonlySet<string>,
  where: (path: string) => string,
): Promise<string[]> {
  const seen = new Set<string>();
  const asked = contenders.filter(({ provider, model }) => {
    const at = `${provider}\u0000${model}`;
    if (seen.has(at) || unreachable.has(provider)) return false;
    seen.add(at);
    return true;
  });
  const found = await Promise.all(
    asked.map(async ({ provider: name, model }) => {
      const provider = suite.registry.get(name);
      if (!provider || !probesTools(provider)) return [];
      // An endpoint section's model is asked for by its name without the section's prefix.
      const called =
        provider.prefix && model.startsWith(provider.prefix) ? model.slice(provider.prefix.length) : model;
      const refusal = await provider.refusesTools({ id: model, name: called }).catch(() => undefined);
      return refusal
        ? [
            `${where(suite.config.file)}: ${name}.models: ${quote(called)} refuses tool calls (${refusal}), ` +
              `and the suite's cases expect tool calls`,
          ]
        : [];
    }),
  );
  return found.flat();
}

/**
 * One problem per lineup model that its endpoint's `GET /models` does not list (with a "did you mean"), asked of each
 * reachable endpoint that lists models; a list read from the cache is fetched again before it refuses anything.
 */
async function unservedModels(
  suite: LoadedSuite,
  models: readonly { provider: string; model: string; configKey?: string }[],
  unreachable: ReadonlySet<string>,
  where: (path: string) => string,
): Promise<string[]> {
  const byProvider = new Map<string, Set<string>>();
  // A model named elsewhere than its section's list (a judge's `judge.model`) is named at its own key.
  const keyOf = new Map<string, string>();
  for (const { provider, model, configKey } of models) {
    const at = `${provider}\u0000${model}`;
    if (!byProvider.get(provider)?.has(model) && configKey !== undefined) keyOf.set(at, configKey);
    else if (configKey === undefined) keyOf.delete(at);
    byProvider.set(provider, (byProvider.get(provider) ?? new Set()).add(model));
  }
  const found = await Promise.all(
    [...byProvider].map(async ([name, names]) => {
      const provider = suite.registry.get(name);
      if (!provider || !listsModels(provider) || unreachable.has(name)) return [];
      let list = await provider.servedModels();
      if (!list) return [];
      if ([...names].some((m) => !servesModel(list!.names, m)))
        list = (await provider.servedModels(true)) ?? list;
      return [...names]
        .filter((m) => !servesModel(list.names, m))
        .map((m) => {
          const near = nearest(m, list.names);
          const count = `${list.names.length} model${list.names.length === 1 ? '' : 's'}`;
          const hint = near ? `; did you mean ${quote(near)}?` : ` (it lists ${count})`;
          // A routed id is written under its vendor's section, without the vendor.
          const vendor = provider.prefix === '' && m.includes('/') ? m.split('/')[0]! : undefined;
          const key =
            keyOf.get(`${name}\u0000${m}`) ??
            (vendor ? `${name}.vendors.${vendor}.models` : `${name}.models`);
          const value = vendor ? `${quote(m.slice(vendor.length + 1))} (${m})` : quote(m);
          return `${where(suite.config.file)}: ${key}: ${value} is not among the models ${list.url} lists${hint}`;
        });
    }),
  );
  return found.flat();
}

/**
 * Scores a case's expected answer as if a model had replied it, before any model is asked: the score (1 is full
 * marks), or the problem when the scorer throws, which every reply would meet only after it was paid for.
 */
async function gradeExpected(suite: LoadedSuite, kase: LoadedCase): Promise<number | string> {
  try {
    const reply = { output: kase.expected, raw: JSON.stringify(kase.expected) };
    return (await suite.scorer.call(kase, reply, suite.adapter.context(kase))).value;
  } catch (error) {
    // A judge grades only in a run (it calls a model): nothing to check offline.
    if (error instanceof Error && error.name === 'JudgeOffline') return 1;
    return `${kase.key}: the scorer threw on the case's own expected answer given as the reply: ${message(error)}`;
  }
}

/** The keys the named providers need and the environment lacks, one line each naming the variable. */
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
