import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.ts';
import { SNAPSHOT_VERSION, type Snapshot } from './snapshot.ts';

/** Writes a snapshot as `<dir>/<runId>.json` and returns the path. */
export function saveSnapshot(snapshot: Snapshot, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${snapshot.runId}.json`);
  writeFileSync(file, JSON.stringify(snapshot, null, 2) + '\n');
  return file;
}

/** Reads a saved snapshot, refusing files of another format version. */
export function readSnapshot(file: string): Snapshot {
  let data: { version?: unknown };
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
  } catch (error) {
    throw new ConfigError(file, undefined, `not a readable snapshot (${(error as Error).message})`);
  }
  if (data.version !== SNAPSHOT_VERSION) {
    throw new ConfigError(
      file,
      'version',
      `expected snapshot version ${SNAPSHOT_VERSION}, got ${JSON.stringify(data.version)}`,
    );
  }
  return data as Snapshot;
}
