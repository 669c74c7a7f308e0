import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { caseFiles, TOY_SUITE, writeTree, type TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { WARM_CACHE } from '../helpers/fault-server.ts';

/** Two cases the toy adapter asks a model to repeat as JSON; a server that echoes the user text answers them right. */
const CASES = {
  ...caseFiles('evals/datasets/pets/cases/clear/001', {
    input: 'A grey cat called Tom.\n',
    expected: '{ "animal": "cat", "name": "Tom" }\n',
  }),
  ...caseFiles('evals/datasets/pets/cases/clear/002', {
    input: 'A dog without a name.\n',
    expected: '{ "animal": "dog", "name": null }\n',
  }),
};

/**
 * A config-only suite on disk with the toy adapter and scorer and the given provider sections; returns its project.
 * `parallelism: 2` keeps every case of an experiment in flight at once.
 */
export function providerSuite(
  dirs: TempDirs,
  sections: string,
  cases: Record<string, string> = CASES,
): string {
  const lineup = [
    `import: ${join(TOY_SUITE, 'lib/toy-suite.ts')}`,
    'adapter: ToyAdapter',
    'scorer: ToyScorer',
    'request_types: [prompt]',
    'defaults: { parallelism: 2 }',
    sections,
  ].join('\n');
  return writeTree(dirs.os('llm-evals-providers-'), { ...cases, 'evals/.llm-evals.config.yml': lineup });
}

/**
 * `count` cases for {@link providerSuite}, dealt round-robin over `datasets`, variant `bulk`: case `<dataset>/bulk/NNN`
 * expects `{"animal": "case", "name": "<dataset>/bulk/NNN"}`, so each case's user text is unique.
 */
export function numberedCases(count: number, datasets: readonly string[] = ['pets']): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const dataset = datasets[i % datasets.length]!;
    const id = `bulk/${String(Math.floor(i / datasets.length) + 1).padStart(3, '0')}`;
    Object.assign(
      files,
      caseFiles(`evals/datasets/${dataset}/cases/${id}`, {
        input: `Case ${dataset}/${id}.\n`,
        expected: JSON.stringify({ animal: 'case', name: `${dataset}/${id}` }) + '\n',
      }),
    );
  }
  return files;
}

let queues = 0;

/**
 * The environment of a CLI run on the shared Temporal server, on a task queue of its own, with a cache folder of
 * the test's (so no catalog of the user's is read or written) and `extra` on top.
 */
export function cliEnv(cache: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  seedWorkflowBundle(cache);
  return {
    TEMPORAL_ADDRESS: temporalAddress(),
    LLM_EVALS_TASK_QUEUE: `providers-${process.pid}-${Date.now()}-${queues++}`,
    XDG_CACHE_HOME: cache,
    OPENROUTER_API_KEY: '',
    ...extra,
  };
}

/**
 * Copies the workflow bundles the global setup built (test/global-setup.ts) into a fresh cache folder: its CLIs then
 * find their bundle there instead of each test building it again (2.7 s of CPU apiece, on a machine the tests keep
 * busy). Only the bundle is shared; the folder's catalogs and compiled suites stay its own.
 */
function seedWorkflowBundle(cache: string): void {
  const from = join(WARM_CACHE, 'llm-evals', 'workflows');
  const to = join(cache, 'llm-evals', 'workflows');
  if (!existsSync(from) || existsSync(to)) return;
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from))
    if (file.endsWith('.js')) copyFileSync(join(from, file), join(to, file));
}

/** The one snapshot a run saved in the suite's results folder, and its raw text. */
export function savedSnapshot(project: string): { snapshot: Snapshot; text: string } {
  const dir = join(project, 'evals/results');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const text = readFileSync(join(dir, file!), 'utf8');
  return { snapshot: JSON.parse(text) as Snapshot, text };
}

/**
 * The snapshots saved in a results folder, with their file names, in the order they were written. A run id sorts by
 * the second it started, so two runs in one second would sort by their random tails; a rescore keeps its run's times.
 */
export function savedSnapshots(dir: string): { file: string; snapshot: Snapshot }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({ file, written: statSync(join(dir, file)).mtimeMs }))
    .sort((a, b) => a.written - b.written)
    .map(({ file }) => ({ file, snapshot: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Snapshot }));
}

/** The snapshot saved last in a results folder. */
export function newestSnapshot(dir: string): Snapshot {
  const last = savedSnapshots(dir).at(-1);
  if (!last) throw new Error(`no snapshot in ${dir}`);
  return last.snapshot;
}

/** The rows for one dataset of the first table with a `dataset` column (leaderboard or matrix), by header. */
export function tableRows(stdout: string, dataset = 'pets'): Record<string, string>[] {
  const lines = stdout.split('\n');
  const header = lines.find((l) => /│ dataset +│/.test(l));
  if (!header) return [];
  const names = header.split('│').map((c) => c.trim());
  return lines
    .filter((l) => new RegExp(`│ ${dataset} +│`).test(l))
    .map((l) => {
      const row: Record<string, string> = Object.fromEntries(
        l.split('│').map((c, i) => [names[i] ?? String(i), c.trim()] as const),
      );
      // A contender tied with the best (`acme/busy = #1`), or worse than it (`acme/slow < #1`), carries its mark
      // after its name: kept apart.
      const tie = / [=<] #\d+$/.exec(row.model ?? '');
      if (tie) [row.model, row.tie] = [row.model!.slice(0, tie.index), tie[0].trim()];
      return row;
    });
}

/** The table's `pets` rows keyed by their model cell. */
export function rowsByModel(stdout: string): Record<string, Record<string, string>> {
  return Object.fromEntries(tableRows(stdout).map((r) => [r.model ?? '', r] as const));
}
