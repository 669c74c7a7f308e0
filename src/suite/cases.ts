import { hash as digestOf } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { globSync } from 'tinyglobby';
import type { Case, Json, Message } from '../api/types.ts';
import type { CaseProblem } from './case-problem.ts';
import { checkExpectedToolCalls, readConversation } from './conversation.ts';

/** The default glob for cases, relative to the suite's root. */
export const DEFAULT_CASES_GLOB = 'datasets/*/cases/**/input.txt';

export type { CaseProblem } from './case-problem.ts';

/** A case as found on disk, with the hash the plan records to spot edits during a run. */
export interface LoadedCase extends Case {
  hash: string;
  words: number;
}

function readJson(file: string, optional: boolean, problems: CaseProblem[]): Json | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    if (!optional) problems.push({ file, problem: 'missing' });
    return undefined;
  }
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    problems.push({ file, problem: `not valid JSON (${(error as Error).message})` });
    return undefined;
  }
}

/** Where a case sits: dataset after `datasets/`, variant the folder holding input.txt unless that is a number. */
export function placeCase(relativeInput: string): { dataset: string; variant: string; id: string } {
  const parts = dirname(relativeInput).split(sep);
  const at = parts.indexOf('datasets');
  const dataset = (at >= 0 ? parts[at + 1] : parts[0]) ?? 'default';
  const folder = parts.at(-1) ?? dataset;
  if (/^\d+$/.test(folder) && parts.length > 1) {
    const variant = parts.at(-2)!;
    return { dataset, variant, id: `${variant}/${folder}` };
  }
  return { dataset, variant: folder, id: folder };
}

/**
 * Reads the cases the glob finds under `root` one at a time, in the order of their input files' paths; problems are
 * added to `problems`, not thrown. What keeps some of each case (a snapshot) need not hold all of them as read.
 */
export function* eachCase(
  root: string,
  glob: string = DEFAULT_CASES_GLOB,
  problems: CaseProblem[] = [],
): Generator<LoadedCase> {
  // The case folders' metadata and expected files are found by the same walk as their inputs (when the glob names
  // input.txt), so that no case asks the file system whether it has one: 100,000 questions were a tenth of loading
  // such a suite. The expected files tell a case folder whose input.txt is missing, which would else be left out.
  const folders = posix.basename(glob) === 'input.txt' ? posix.dirname(glob) : '';
  const metadataGlob = folders ? posix.join(folders, 'metadata.json') : '';
  // A conversation's input.json stands where an input.txt would.
  const patterns = [
    glob,
    metadataGlob,
    posix.join(folders, 'expected.json'),
    posix.join(folders, 'input.json'),
  ];
  const found = globSync(folders ? patterns : [glob], {
    cwd: root,
    absolute: false,
    dot: false,
  });
  const withMetadata = new Set<string>();
  // Every case reads its expected.json; only when more were found than read is there a folder without an input, and
  // only then are they told apart (a set of 100,000 folders cost a sixth of loading a suite that has none).
  const expectedFiles: string[] = [];
  let expectedRead = 0;
  const names = new Map<string, string>();
  const named = (name: string) => names.get(name) ?? (names.set(name, name), name);
  const inputs: string[] = [];
  const conversations = new Set<string>();
  for (const rel of found) {
    if (!folders) inputs.push(rel);
    else if (rel.endsWith('/metadata.json')) withMetadata.add(posix.dirname(rel));
    else if (rel.endsWith('/expected.json')) expectedFiles.push(rel);
    else if (rel.endsWith('/input.json')) conversations.add(posix.dirname(rel));
    else inputs.push(rel);
  }
  const withText = conversations.size ? new Set(inputs.map((rel) => posix.dirname(rel))) : conversations;
  for (const folder of conversations) {
    if (withText.has(folder))
      problems.push({
        file: join(root, folder),
        problem: 'a case folder with both input.txt and input.json',
      });
    else inputs.push(posix.join(folder, 'input.json'));
  }
  inputs.sort();
  for (const rel of inputs) {
    const inputFile = join(root, rel);
    const folder = dirname(inputFile);
    const input = readFileSync(inputFile, 'utf8');
    const before = problems.length;
    let messages: Message[] | undefined;
    if (rel.endsWith('.json')) messages = readConversation(inputFile, input, problems);
    else if (input.trim() === '') problems.push({ file: inputFile, problem: 'empty input' });
    const expectedFile = folder + sep + 'expected.json';
    const missing = problems.length;
    const expected = readJson(expectedFile, false, problems);
    if (problems.length === missing || problems[missing]!.problem !== 'missing') expectedRead++;
    checkExpectedToolCalls(expectedFile, expected, problems);
    const metadataFile = folder + sep + 'metadata.json';
    const at = folders ? posix.dirname(rel) : '';
    // Deleted as read: what is left after the last input has no input.
    const hasMetadata = folders ? withMetadata.delete(at) : existsSync(metadataFile);
    const read = hasMetadata ? readJson(metadataFile, true, problems) : undefined;
    const metadata = read === undefined ? {} : read;
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      problems.push({ file: metadataFile, problem: 'expected a JSON object' });
    }
    if (problems.length > before) continue;
    const place = placeCase(rel);
    // One string per dataset and variant name, not one per case.
    place.dataset = named(place.dataset);
    place.variant = named(place.variant);
    // The one-shot digest: a Hash object per case cost more than the hashing. Its first 8 bytes as hex of their own:
    // a slice of the whole digest's hex keeps all 64 characters alive.
    const hash = digestOf(
      'sha256',
      `${input}\0${JSON.stringify(expected)}\0${JSON.stringify(metadata)}`,
      'buffer',
    ).toString('hex', 0, 8);
    yield {
      ...place,
      key: `${place.dataset}/${place.id}`,
      input,
      ...(messages ? { messages } : {}),
      expected: expected!,
      path: folder,
      metadata: metadata as Record<string, Json>,
      hash,
      words: input.split(/\s+/).filter(Boolean).length,
    };
  }
  const withExpected = new Set<string>();
  if (folders && expectedFiles.length > expectedRead) {
    const read = new Set(inputs.map((rel) => posix.dirname(rel)));
    for (const rel of expectedFiles) if (!read.has(posix.dirname(rel))) withExpected.add(posix.dirname(rel));
  }
  for (const folder of [...new Set([...withExpected, ...withMetadata])].sort()) {
    const has = withExpected.has(folder) ? 'expected.json' : 'metadata.json';
    problems.push({ file: join(root, folder), problem: `a case folder with ${has} but no input.txt` });
  }
}

/** Reads every case the glob finds under `root`, sorted by key; problems are collected, not thrown. */
export function loadCases(
  root: string,
  glob: string = DEFAULT_CASES_GLOB,
): { cases: LoadedCase[]; problems: CaseProblem[] } {
  const problems: CaseProblem[] = [];
  const cases = Array.from(eachCase(root, glob, problems));
  cases.sort((a, b) => a.key.localeCompare(b.key));
  return { cases, problems };
}

/** Keeps the cases of the named datasets (all when none) that match a `-c` selector (a variant or `variant/NNN`). */
export function selectCases<T extends Case>(
  cases: readonly T[],
  datasets: readonly string[],
  selectors: readonly string[],
): T[] {
  return cases.filter(
    (c) =>
      (datasets.length === 0 || datasets.includes(c.dataset)) &&
      (selectors.length === 0 || selectors.some((s) => s === c.variant || s === c.id || s === c.key)),
  );
}

/** A path relative to `from` for messages, or the path itself when outside. */
export function shortPath(from: string, path: string): string {
  const rel = relative(from, path);
  return rel.startsWith('..') ? path : rel || basename(path);
}

/** A worker's cases by key, and a way to read them again from disk. */
export interface LiveCases {
  cases: Map<string, LoadedCase>;
  /** Reads every case again. */
  refresh: () => void;
}

/**
 * The cases of a long-lived worker: loaded now, and read again when a run planned later (a scheduled fire, a `start`
 * after an edit) names a case this process lacks or holds in another version.
 */
export function liveCases(root: string, glob: string): LiveCases {
  const cases = new Map<string, LoadedCase>();
  const refresh = () => {
    cases.clear();
    for (const c of loadCases(root, glob).cases) cases.set(c.key, c);
  };
  refresh();
  return { cases, refresh };
}
