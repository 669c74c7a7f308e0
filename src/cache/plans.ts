import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PlannedCases, PlanRef } from '../core/run-input.ts';
import { userStateDir } from '../dirs.ts';
import { replaceFile } from './replace-file.ts';

/** Where runs' case lists are kept: `plans` beside the embedded server's state, per user, shared by every project. */
export function plansDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(userStateDir(env), 'plans');
}

/** The sha256 of one dataset's `[key, hash]` list, in its order: what a worker holding the suite checks its cases by. */
export function datasetDigest(list: readonly (readonly [string, string])[]): string {
  const hash = createHash('sha256');
  for (const [key, caseHash] of list) hash.update(`${key}\t${caseHash}\n`);
  return hash.digest('hex');
}

/**
 * The case lists of runs, one file per plan named by its digest, so that no list growing with the suite rides in a
 * workflow's input (Temporal refuses an input over 2 MB: near 57,000 cases). Written once before its run starts, by
 * temporary file and rename, and never changed: a reader sees the whole plan or none.
 */
export class PlanStore {
  constructor(readonly dir: string) {}

  /** Keeps a run's cases and returns the reference its workflows carry: the digests and each dataset's size. */
  put(cases: PlannedCases): PlanRef {
    const datasets: PlanRef['datasets'] = {};
    for (const [name, list] of Object.entries(cases))
      datasets[name] = { size: list.length, digest: datasetDigest(list) };
    const digest = createHash('sha256').update(JSON.stringify(datasets)).digest('hex');
    const file = this.fileOf(digest);
    replaceFile(file, `${file}.${randomBytes(6).toString('hex')}.tmp`, JSON.stringify(cases));
    return { digest, datasets };
  }

  /** The cases of a plan, or undefined when this machine does not hold it. */
  get(digest: string): PlannedCases | undefined {
    try {
      return JSON.parse(readFileSync(this.fileOf(digest), 'utf8')) as PlannedCases;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** The file of a plan. */
  fileOf(digest: string): string {
    return join(this.dir, `${digest}.json`);
  }
}
