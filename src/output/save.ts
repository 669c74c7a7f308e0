import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunFlags } from '../cli/options.ts';
import { ConfigError } from '../errors.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { SNAPSHOT_VERSION, SnapshotSchema, type Snapshot } from '../core/snapshot.ts';
import { shownPath, writeWhole } from './write-whole.ts';

/** What a snapshot that could not be saved says next: where its results still are, and the command that saves it. */
export function saveAgain(snapshot: Snapshot, file: string): string {
  if (snapshot.rescoreOf) {
    return `The saved replies are still in run ${snapshot.rescoreOf.runId}; rescore it again: llm-evals rescore ${snapshot.rescoreOf.file ?? snapshot.rescoreOf.runId}`;
  }
  return (
    `The run's results are safe in Temporal; once there is room, write them again with: ` +
    `llm-evals report ${snapshot.runId} --format json -o ${shownPath(file)}`
  );
}

/** The snapshot's lists that grow with the run: written one item per line, never as one string. */
const LONG_LISTS = new Set(['cases', 'results']);

/**
 * A snapshot's JSON in pieces: indented as `JSON.stringify(snapshot, null, 2)` would be, except that each case and
 * each result takes one line (a million results stay under V8's longest string, and a file greps by line). As each
 * piece is made, the snapshot takes the value that piece reads back as, in place: what is shown after saving is what
 * the file holds (undefined left out, NaN as null), with no second copy of a million results in memory.
 */
function* snapshotPieces(snapshot: Snapshot): Generator<string> {
  const record = snapshot as unknown as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => record[key] !== undefined);
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  yield '{';
  for (const [i, key] of keys.entries()) {
    yield `${i ? ',' : ''}\n  ${JSON.stringify(key)}: `;
    const value = record[key];
    if (LONG_LISTS.has(key) && Array.isArray(value) && value.length) {
      for (const [j, item] of value.entries()) {
        const line = JSON.stringify(item);
        value[j] = JSON.parse(line) as unknown;
        yield `${j ? ',' : '['}\n    ${line}`;
      }
      yield '\n  ]';
    } else {
      const text = JSON.stringify(value, null, 2);
      record[key] = JSON.parse(text);
      yield text.replaceAll('\n', '\n  ');
    }
  }
  yield '\n}\n';
}

/**
 * Writes a snapshot as `<dir>/<runId>.json`, whole or not at all, and returns the path. The snapshot becomes what the
 * file reads back as (see `snapshotPieces`), so the reports shown next are the ones `render` rebuilds from the file.
 */
export function saveSnapshot(snapshot: Snapshot, dir: string): string {
  const file = join(dir, `${snapshot.runId}.json`);
  writeWhole(file, { pieces: snapshotPieces(snapshot) }, saveAgain(snapshot, file));
  return file;
}

/** `results[3].usage.costUsd`: a zod issue's path as the file spells it. */
function keyPath(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i > 0 ? '.' : ''}${String(k)}`)).join('');
}

/** Reads a saved snapshot and checks it against the schema, refusing files of another format version. */
export function readSnapshot(file: string): Snapshot {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(file, undefined, `not a readable snapshot (${(error as Error).message})`);
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (version !== SNAPSHOT_VERSION) {
    throw new ConfigError(
      file,
      'version',
      `expected snapshot version ${SNAPSHOT_VERSION}, got ${JSON.stringify(version)}`,
    );
  }
  const parsed = SnapshotSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(file, keyPath(issue.path), `not a snapshot: ${issue.message}`);
  }
  return parsed.data;
}

/** The folder a run's snapshot is saved in, as the flags and the lineup's `results:` say. */
export function snapshotDir(
  suite: LoadedSuite,
  flags: Pick<RunFlags, 'autosave' | 'destination' | 'tempDir'>,
): string {
  const results = suite.config.values.results;
  const autosave = flags.autosave ?? results?.autosave ?? true;
  return autosave
    ? resolve(suite.projectDir, flags.destination ?? results?.destination ?? join(suite.root, 'results'))
    : resolve(suite.projectDir, flags.tempDir ?? results?.temp_dir ?? 'tmp');
}

/** Saves a run's snapshot where the flags and the lineup's `results:` say; returns the file. */
export function saveRunSnapshot(
  snapshot: Snapshot,
  suite: LoadedSuite,
  flags: Pick<RunFlags, 'autosave' | 'destination' | 'tempDir'>,
): string {
  return saveSnapshot(snapshot, snapshotDir(suite, flags));
}
