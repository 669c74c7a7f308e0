import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The repository's root, where `bin/`, `examples/` and the git-ignored `tmp/` live. */
export const REPO = resolve(import.meta.dirname, '../..');

/** The toy suite (a helper file plus a lineup) that users copy. */
export const TOY_SUITE = join(REPO, 'examples/toy-suite');

/** The config-only suite (adapter and scorer named in YAML). */
export const CONFIG_ONLY_SUITE = join(REPO, 'examples/config-only-suite');

/** What a run leaves in a suite's folder (server state, snapshots, logs), never copied into a test's suite. */
const RUN_LEFTOVERS = ['.llm-evals', 'evals/results', 'log', 'tmp'];

/** Temporary folders made by a test file, removed together in `afterAll`. */
export class TempDirs {
  private readonly made: string[] = [];

  /** A fresh empty folder under the OS temp dir: for suites that import nothing from `llm-evals`. */
  os(prefix = 'llm-evals-test-'): string {
    return this.track(mkdtempSync(join(tmpdir(), prefix)));
  }

  /** A fresh empty folder under the repository's `tmp/`, where `import 'llm-evals'` resolves by self-reference. */
  inRepo(prefix = 'test-'): string {
    mkdirSync(join(REPO, 'tmp'), { recursive: true });
    return this.track(mkdtempSync(join(REPO, 'tmp', prefix)));
  }

  /** A copy of the toy suite under the repository's `tmp/`, to edit per test; without what earlier runs left there. */
  toySuite(): string {
    const dir = this.inRepo('toy-');
    cpSync(TOY_SUITE, dir, {
      recursive: true,
      filter: (src) => !RUN_LEFTOVERS.some((name) => src.endsWith(`/${name}`)),
    });
    return dir;
  }

  removeAll(): void {
    for (const dir of this.made.splice(0)) rmSync(dir, { recursive: true, force: true });
  }

  private track(dir: string): string {
    this.made.push(dir);
    return dir;
  }
}

/** Writes files (path relative to `root` → content), making folders as needed; returns `root`. */
export function writeTree(root: string, files: Record<string, string>): string {
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

/** Rewrites a file through `edit`, failing loudly when the edit changed nothing (a stale fixture). */
export function editFile(file: string, edit: (text: string) => string): void {
  const before = readFileSync(file, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`editFile: nothing changed in ${file}`);
  writeFileSync(file, after);
}

/** The files of one case folder: an input, an expected answer and optional metadata. */
export function caseFiles(
  folder: string,
  kase: { input?: string; expected?: string; metadata?: string },
): Record<string, string> {
  const files: Record<string, string> = {};
  if (kase.input !== undefined) files[`${folder}/input.txt`] = kase.input;
  if (kase.expected !== undefined) files[`${folder}/expected.json`] = kase.expected;
  if (kase.metadata !== undefined) files[`${folder}/metadata.json`] = kase.metadata;
  return files;
}
