import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Io } from '../cli/io.ts';
import type { SaveChoice } from '../core/request.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { ConfigError, quote } from '../errors.ts';
import { judgeAgreements, parseLabels, type JudgeColumns, type Label } from '../judge/labels.ts';
import { newestSnapshotFile, readSnapshot, snapshotDir } from '../output/save.ts';
import { contenderName } from '../report/columns.ts';
import { contenderLabels } from '../report/value-chart.ts';
import { writeWhole } from '../output/write-whole.ts';
import { JudgeScorer } from '../scorers/judge.ts';
import { eachCase, shortPath } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { collectSnapshot } from './collect.ts';
import { linkForCommand } from './link.ts';

/** The sha256 of a reply's raw text: what a label is attached to, so it holds across runs giving the same reply. */
export const replySha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The suite's labels file: `labels.jsonl` beside its cases, versioned with them. */
export const labelsFile = (suite: Pick<LoadedSuite, 'root'>): string => join(suite.root, 'labels.jsonl');

/** The suite's labels; none when it has no labels file. A line that is not a label is bad input naming file and line. */
export function readLabels(suite: Pick<LoadedSuite, 'root' | 'projectDir'>): Label[] {
  const file = labelsFile(suite);
  if (!existsSync(file)) return [];
  const read = parseLabels(readFileSync(file, 'utf8'));
  if ('problem' in read)
    throw new ConfigError(
      shortPath(suite.projectDir, file),
      `line ${read.problem.line}`,
      read.problem.message,
    );
  return read.labels;
}

/** Adds a label to the suite's labels file, whole or not at all (a crash leaves the file as it was). */
export function appendLabel(suite: Pick<LoadedSuite, 'root' | 'projectDir'>, label: Label): string {
  const file = labelsFile(suite);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const sep = before === '' || before.endsWith('\n') ? '' : '\n';
  writeWhole(file, `${before}${sep}${JSON.stringify(label)}\n`, `llm-evals label again`);
  return file;
}

/** Where a suite's judge reads from: its scale and models, when its scorer is a judge (the lineup's or a helper's). */
export function judgeColumns(suite: Pick<LoadedSuite, 'scorer'>): JudgeColumns | undefined {
  const s = suite.scorer;
  return s instanceof JudgeScorer ? { scale: s.scale, models: s.options.models } : undefined;
}

/** The run's agreement with the suite's labels, for the snapshot's `judgeAgreement`; `undefined` where none applies. */
export function runAgreement(
  snapshot: Pick<Snapshot, 'results'>,
  suite: Pick<LoadedSuite, 'root' | 'projectDir' | 'scorer'>,
): Snapshot['judgeAgreement'] {
  const columns = judgeColumns(suite);
  if (!columns) return undefined;
  const labels = readLabels(suite);
  if (labels.length === 0) return undefined;
  const found = judgeAgreements(snapshot, labels, columns, replySha);
  return found.length ? found : undefined;
}

/**
 * A run's snapshot for the label commands: a snapshot file, the saved snapshot of a run id, or the run as Temporal
 * holds it; with no target, the newest saved run.
 */
export async function runSnapshot(
  target: string | undefined,
  suite: LoadedSuite,
  save: SaveChoice,
  io: Io,
): Promise<Snapshot> {
  const dir = snapshotDir(suite, { ...save, autosave: true });
  if (target === undefined) {
    const newest = newestSnapshotFile(dir);
    if (!newest) throw new ConfigError(shortPath(suite.projectDir, dir), undefined, 'no saved run to read');
    return readSnapshot(newest);
  }
  for (const file of [resolve(io.cwd, target), join(dir, `${target}.json`)])
    if (existsSync(file) && file.endsWith('.json')) return readSnapshot(file);
  if (!/^[\w.-]+$/.test(target))
    throw new ConfigError(undefined, 'RUN', `no run or snapshot ${quote(target)}`);
  const link = await linkForCommand(suite.projectDir, io, 'label');
  try {
    return await collectSnapshot(link, eachCase(suite.root, suite.casesGlob), target);
  } finally {
    await link.close();
  }
}

/**
 * Puts the run's agreement with the suite's labels into its snapshot before it is saved, so every report (TUI, HTML,
 * JSON) shows it. A labels file with a bad line is warned of here, not thrown: the run's results are saved all the same.
 */
export function attachAgreement(
  snapshot: Snapshot,
  suite: Pick<LoadedSuite, 'root' | 'projectDir' | 'scorer'>,
  io: Pick<Io, 'stderr'>,
): void {
  try {
    const found = runAgreement(snapshot, suite);
    if (found) snapshot.judgeAgreement = found;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`warning: judge agreement left out: ${error.message}\n`);
  }
}

/**
 * The reply texts of one case by one contender in a run, the contender named as the lineup names it (with its
 * settings where the lineup multiplies them, `fake/echo t=0.7`), its key, or its id where that is one contender.
 * A name or case the run does not hold is bad input naming the value and what the run holds.
 */
export function repliesOf(snapshot: Snapshot, caseKey: string, contender: string): string[] {
  const labels = contenderLabels(snapshot);
  const named = snapshot.contenders.filter(
    (c) => labels.get(c.key) === contender || contenderName(c) === contender || c.key === contender,
  );
  const byId = snapshot.contenders.filter((c) => c.id === contender);
  const chosen = named.length ? named : byId.length === 1 ? byId : [];
  if (!chosen.length) {
    const names = [...new Set(labels.values())].map((n) => quote(n)).join(', ');
    throw new ConfigError(
      undefined,
      'CONTENDER',
      `${quote(contender)} is not a contender of run ${snapshot.runId}; its contenders: ${names}`,
    );
  }
  const keys = new Set(chosen.map((c) => c.key));
  const experiments = new Set(snapshot.experiments.filter((e) => keys.has(e.contender)).map((e) => e.id));
  const results = snapshot.results.filter((r) => r.caseKey === caseKey && experiments.has(r.experimentId));
  if (!results.length)
    throw new ConfigError(
      undefined,
      'CASE',
      `run ${snapshot.runId} has no result of case ${quote(caseKey)} by ${quote(contender)}`,
    );
  const texts = [...new Set(results.flatMap((r) => (r.reply === undefined ? [] : [r.reply])))];
  if (!texts.length)
    throw new ConfigError(
      undefined,
      'CASE',
      `case ${quote(caseKey)} by ${quote(contender)} has no reply to label`,
    );
  return texts;
}
