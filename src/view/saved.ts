import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot } from '../core/snapshot.ts';
import { readSnapshot } from '../output/save.ts';
import { keep } from './keep.ts';
import type { RunView } from './model.ts';
import { countedProgress, savedState } from './progress.ts';

/** A saved snapshot's file name: no folder part, nothing but plain characters, `.json` at the end. */
const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;

/** Results the kept saved snapshots may hold in all, as for Temporal's runs. */
const KEPT_RESULTS = 30_000;

/** A saved snapshot file as the list shows it. */
export interface SavedFile {
  file: string;
  bytes: number;
  modifiedAt: string;
}

/**
 * The saved snapshots of one project's results folder, read-only. A file is read only when its name is one that
 * folder lists, so no name in a URL reaches outside it.
 */
export class SavedSnapshots {
  private readonly cache = new Map<string, { mtime: number; snapshot: Snapshot }>();

  constructor(readonly dir: string | undefined) {}

  /** The folder's snapshot files, newest first; none when the folder is missing. */
  list(): SavedFile[] {
    if (!this.dir) return [];
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => FILE.test(n));
    } catch {
      return [];
    }
    return names
      .map((file) => {
        const stat = statSync(join(this.dir!, file));
        return { file, bytes: stat.size, modifiedAt: stat.mtime.toISOString() };
      })
      .sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt));
  }

  /** A saved snapshot as a read-only run view; `undefined` for a name the folder does not list or an unreadable file. */
  read(file: string): RunView | undefined {
    if (!this.dir || !FILE.test(file) || file.includes('..')) return undefined;
    const listed = this.list().find((f) => f.file === file);
    if (!listed) return undefined;
    const mtime = Date.parse(listed.modifiedAt);
    let snapshot = this.cache.get(file)?.mtime === mtime ? this.cache.get(file)!.snapshot : undefined;
    if (!snapshot) {
      try {
        snapshot = readSnapshot(join(this.dir, file));
      } catch {
        return undefined;
      }
      keep(this.cache, file, { mtime, snapshot }, KEPT_RESULTS, (kept) => kept.snapshot.results.length);
    }
    const state = savedState(snapshot.status);
    return {
      snapshot,
      state,
      experiments: countedProgress(snapshot, state, true),
      live: false,
      closed: true,
      saved: file,
    };
  }
}
