// The settings the embedded dev server starts with, and how to tell that a running one lacks some.

/** The custom search attributes every embedded server registers, so `runs`/`status` can find runs. */
export const SEARCH_ATTRIBUTES = [
  'LlmEvalsRunId',
  'LlmEvalsSuite',
  'LlmEvalsState',
  'LlmEvalsProject',
  'LlmEvalsSchedule',
] as const;

/**
 * What the embedded server runs with, as flag and value: the settings a server started by an earlier llm-evals may
 * lack (its command line shows them), and which it takes only when it starts.
 */
export const SERVER_SETTINGS: readonly (readonly [string, string])[] = [
  // WAL + synchronous=normal roughly doubled throughput in our bench. A crash of the server process loses nothing
  // committed; a power cut of the machine may lose the last transactions (the db stays consistent).
  ['--sqlite-pragma', 'journal_mode=wal'],
  ['--sqlite-pragma', 'synchronous=normal'],
  ['--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true'],
  ['--dynamic-config-value', 'frontend.enableExecuteMultiOperation=true'],
  ['--dynamic-config-value', 'system.enableActivityEagerExecution=true'],
  // A query that reaches a workflow while its task runs waits for the task; the server holds one such query per
  // workflow by default and refuses the next with RESOURCE_EXHAUSTED, which the SDK retries only after ~1 s. A
  // command's pools and its progress loop read the run's gate at once: 1 toy compare in 10-20 had its calls wait
  // 1.5-2 s for a look at the gate.
  ['--dynamic-config-value', 'history.MaxBufferedQueryCount=100'],
  // With Worker Versioning each suite's queue is a deployment, and every project of the user shares this server: its
  // default of 100 deployments per namespace would refuse the workers of the 101st suite ever started on the machine.
  ['--dynamic-config-value', 'matching.maxDeployments=10000'],
  ...SEARCH_ATTRIBUTES.map((name) => ['--search-attribute', `${name}=Keyword`] as const),
];

/**
 * The settings (their values) a server started with `args` lacks: none when its command line cannot be read, since
 * then nothing can be said of it.
 */
export function missingSettings(args: readonly string[] | undefined): string[] {
  if (!args) return [];
  const given = new Set(args.flatMap((arg, i) => (i > 0 ? [`${args[i - 1]}\0${arg}`] : [])));
  return SERVER_SETTINGS.filter(([flag, value]) => !given.has(`${flag}\0${value}`)).map(([, value]) => value);
}

/**
 * The settings a running server lacks that this version (`ours`) gives it by starting it again: those it lacks when
 * the llm-evals that started it (`startedBy`, recorded from this version on) is older; none when that one is the same
 * or newer, whose settings are its own: two projects on two versions would otherwise start the shared server in turn.
 */
export function settingsToApply(
  args: readonly string[] | undefined,
  startedBy: string | undefined,
  ours: string,
): string[] {
  return startedBy !== undefined && !isOlder(startedBy, ours) ? [] : missingSettings(args);
}

/** Whether version `a` comes before `b`, by their numbers major.minor.patch. */
export function isOlder(a: string, b: string): boolean {
  const numbers = (version: string) =>
    version.split(/[.+-]/, 3).map((part) => Number.parseInt(part, 10) || 0);
  const [x, y] = [numbers(a), numbers(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}
