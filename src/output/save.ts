import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { join, resolve } from 'node:path';
import type { SaveChoice } from '../core/request.ts';
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
 * Whether a value is plain JSON that `JSON.parse(JSON.stringify(value))` gives back equal: null, booleans, strings,
 * finite numbers other than -0, and arrays and plain objects of those, with no undefined, no hole, no `toJSON`.
 */
export function readsBackAsIs(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !readsBackAsIs(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      if ('toJSON' in value) return false;
      for (const key in value) if (!readsBackAsIs((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

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
        // Parsed again only when it would read back otherwise: a result decoded from Temporal's JSON is kept, with
        // the parts it shares with others (see ResultSharing), instead of a fresh copy of each.
        if (!readsBackAsIs(item)) value[j] = JSON.parse(line) as unknown;
        // Two pieces, not one joined string: the writer encodes each as it comes, with no copy.
        yield j ? ',\n    ' : '[\n    ';
        yield line;
      }
      yield '\n  ]';
    } else {
      const text = JSON.stringify(value, null, 2);
      // Parsed again only when it would read back otherwise, as above: the experiments' lists of case keys share
      // their strings with the plan's, and a fresh copy of 100,000 keys is megabytes.
      if (!readsBackAsIs(value)) record[key] = JSON.parse(text);
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

/**
 * Above this size a snapshot is read line by line: the whole file as one string could pass V8's longest string
 * (536,870,888 characters). Below it, one parse is faster.
 */
const WHOLE_READ_LIMIT = 400 * 1024 * 1024;

/** A file's lines, read 16 MB at a time. */
function* linesOf(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(16 * 1024 * 1024);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (let read; (read = readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
      const lines = (rest + decoder.write(buffer.subarray(0, read))).split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    rest += decoder.end();
    if (rest) yield rest;
  } finally {
    closeSync(fd);
  }
}

/**
 * Parses a snapshot as `snapshotPieces` writes it, each case and result on a line of its own: those lines one by
 * one, the rest as one small document. Undefined when the file is laid out otherwise.
 */
function parseByLines(file: string): unknown {
  let rest = '';
  const lists = new Map<string, unknown[]>();
  let list: unknown[] | undefined;
  for (const line of linesOf(file)) {
    const opened = /^ {2}"(cases|results)": \[$/.exec(line);
    if (opened) {
      list = [];
      lists.set(opened[1]!, list);
      rest += `  "${opened[1]!}": [`;
    } else if (list && line.startsWith('    ')) {
      try {
        list.push(JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line));
      } catch {
        return undefined;
      }
    } else {
      list = undefined;
      rest += line + '\n';
    }
  }
  const data = JSON.parse(rest) as Record<string, unknown>;
  for (const [key, items] of lists) data[key] = items;
  return data;
}

/**
 * Reads a saved snapshot and checks it against the schema, refusing files of another format version. A file over
 * `wholeReadLimit` bytes is read line by line when it is laid out as `saveSnapshot` writes it.
 */
export function readSnapshot(file: string, wholeReadLimit = WHOLE_READ_LIMIT): Snapshot {
  let data: unknown;
  try {
    const large = statSync(file).size > wholeReadLimit;
    data = (large ? parseByLines(file) : undefined) ?? JSON.parse(readFileSync(file, 'utf8'));
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

/** The newest snapshot file in `dir`: snapshot files are named by run id, which starts with the time it was made. */
export function newestSnapshotFile(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const newest = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .at(-1);
  return newest && join(dir, newest);
}

/** The folder a run's snapshot is saved in, as the request and the lineup's `results:` say. */
export function snapshotDir(suite: LoadedSuite, save: SaveChoice): string {
  const results = suite.config.values.results;
  const autosave = save.autosave ?? results?.autosave ?? true;
  return autosave
    ? resolve(suite.projectDir, save.destination ?? results?.destination ?? join(suite.root, 'results'))
    : resolve(suite.projectDir, save.tempDir ?? results?.temp_dir ?? 'tmp');
}

/** Saves a run's snapshot where the request and the lineup's `results:` say; returns the file. */
export function saveRunSnapshot(snapshot: Snapshot, suite: LoadedSuite, save: SaveChoice): string {
  return saveSnapshot(snapshot, snapshotDir(suite, save));
}
