import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import pc from 'picocolors';
import type { Case, Json } from '../api/types.ts';
import type { Io } from '../cli/io.ts';
import type { RunRequest } from '../core/request.ts';
import { failedScore, type Scorer, type ScorerTools } from '../api/scorer.ts';
import { cachedJudgeTools, type JudgeCalls } from '../cache/judge-tools.ts';
import { ReplyStore, replyCacheDir } from '../cache/store.ts';
import { canRescore, rescoreSnapshot, type SavedReply, type Verdict } from '../core/rescore.ts';
import type { Snapshot, SnapshotCase } from '../core/snapshot.ts';
import { readSnapshot, saveRunSnapshot } from '../output/save.ts';
import { loadCases, shortPath, type LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { checkWeights } from '../suite/plan.ts';
import { collectSnapshot } from './collect.ts';
import { attachAgreement } from './labels.ts';
import { linkForCommand } from './link.ts';
import { openSuite } from './open-suite.ts';
import { presentRun } from './present.ts';
import { newRunId } from './run-id.ts';

/** A case as a snapshot keeps it. */
const snapshotCase = ({ key, id, dataset, variant, input, expected, metadata }: Case): SnapshotCase => ({
  key,
  id,
  dataset,
  variant,
  input,
  expected,
  metadata,
});

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The run to rescore: a snapshot file when `target` names one, else the run of that id as Temporal holds it. */
async function originalOf(
  target: string,
  suite: LoadedSuite,
  cases: readonly LoadedCase[],
  io: Io,
): Promise<{ snapshot: Snapshot; file?: string }> {
  const file = resolve(io.cwd, target);
  if (existsSync(file)) return { snapshot: readSnapshot(file), file };
  const link = await linkForCommand(suite.projectDir, io, 'rescore');
  try {
    return { snapshot: await collectSnapshot(link, cases, target) };
  } finally {
    await link.close();
  }
}

/**
 * The cases a rescore grades against: the suite's on disk (an expected answer fixed since is used) when the input is
 * still the one the model answered, else the case as the run saved it.
 */
function casesToGrade(snapshot: Snapshot, onDisk: readonly LoadedCase[], io: Io): Map<string, Case> {
  const disk = new Map(onDisk.map((c) => [c.key, c]));
  const chosen = new Map<string, Case>();
  const changed: string[] = [];
  for (const saved of snapshot.cases) {
    const now = disk.get(saved.key);
    if (now && now.input === saved.input) chosen.set(saved.key, now);
    else {
      if (now) changed.push(saved.key);
      chosen.set(saved.key, { ...saved, path: '' });
    }
  }
  if (changed.length) {
    const note = `${changed.length} case input(s) changed since the run (${changed.slice(0, 3).join(', ')}): graded against the expected answers the run saved`;
    io.stderr.write(pc.yellow(`warning: ${note}`) + '\n');
  }
  return chosen;
}

/**
 * `rescore RUN|FILE`: grades a run's saved replies again with the suite's current scorer and weights, calling no
 * model, and saves a new snapshot that names the original; then shows it like `report`.
 */
export async function rescoreRun(target: string, request: RunRequest, io: Io): Promise<number> {
  const suite = await openSuite(request.suite, io);
  const { cases: onDisk } = loadCases(suite.root, suite.casesGlob);
  const { snapshot: original, file } = await originalOf(target, suite, onDisk, io);
  const metrics = suite.scorer.metrics();
  const weights = suite.config.values.weighted_score?.weights;
  checkWeights(
    suite.config.file,
    weights,
    metrics.map((m) => m.name),
  );
  const cases = casesToGrade(original, onDisk, io);
  const contexts = new Map<string, Json>();
  const scorer = suite.scorer as Partial<Scorer> & Scorer;
  const runId = newRunId();
  // A judge grades again with the current rubric: its verdicts from the reply cache where the run (or a rescore)
  // paid for the same request, else asked of its model.
  const judged: JudgeCalls = { calls: 0, cached: 0, usd: 0 };
  const tools: ScorerTools | undefined = suite.judges.size
    ? cachedJudgeTools(suite.judges, suite.registry, new ReplyStore(replyCacheDir(io.env)), runId, judged)
    : undefined;
  const gradeNow = async (saved: SnapshotCase, reply: SavedReply): Promise<Verdict> => {
    const kase = cases.get(saved.key) ?? { ...saved, path: '' };
    try {
      if (!contexts.has(kase.key)) contexts.set(kase.key, suite.adapter.context(kase));
      const context = contexts.get(kase.key) ?? null;
      if (reply.error === undefined) return await scorer.call(kase, reply, context, tools);
      return scorer.failed ? scorer.failed(kase, reply, context) : failedScore(metrics);
    } catch (error) {
      return { failed: message(error) };
    }
  };
  // A scorer may answer later (a judge model): the replies are graded first, in the order rescoreSnapshot asks for
  // them, and the pure rescore then reads the verdicts in that same order.
  const asked: Promise<Verdict>[] = [];
  const parts = (grade: (saved: SnapshotCase, reply: SavedReply) => Verdict) => ({
    runId,
    rescoreOf: {
      runId: original.runId,
      ...(file ? { file: shortPath(suite.projectDir, file) } : {}),
      rescoredAt,
    },
    metrics,
    ...(weights ? { weights } : {}),
    cases: original.cases.map((c) => snapshotCase(cases.get(c.key) ?? { ...c, path: '' })),
    grade,
  });
  const rescoredAt = new Date().toISOString();
  rescoreSnapshot(
    original,
    parts((saved, reply) => {
      asked.push(gradeNow(saved, reply));
      return { failed: 'pending' };
    }),
  );
  const verdicts = await Promise.all(asked);
  let next = 0;
  const rescored = rescoreSnapshot(
    original,
    parts(() => verdicts[next++]!),
  );
  const graded = original.results.filter(canRescore).length;
  const truncated = original.results.filter((r) => canRescore(r) && r.replyTruncated).length;
  attachAgreement(rescored, suite, io);
  const saved = saveRunSnapshot(rescored, suite, request.save);
  const calls = tools
    ? `the judge made ${judged.calls} call${judged.calls === 1 ? '' : 's'} ($${judged.usd.toFixed(4)}), ${judged.cached} verdict${judged.cached === 1 ? '' : 's'} from the cache`
    : 'no model was called';
  io.stderr.write(
    `rescored ${graded} saved replies of run ${original.runId} with the suite's current scorer; ${calls}\n`,
  );
  if (truncated) {
    io.stderr.write(
      pc.yellow(
        `warning: ${truncated} replies were saved cut to 16 KB; a scorer reading the raw text sees them cut`,
      ) + '\n',
    );
  }
  // Exits as `report` of the same run does: 1 when a contender scored nothing (unless --allow-failures), or when the
  // run did not complete; the line saying "(exit 1; …)" and the code agree.
  return presentRun(rescored, saved, suite, request.show, io, { display: 'tui' });
}
