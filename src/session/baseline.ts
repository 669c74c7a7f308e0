import { appendFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { GateRequest, Sample } from '../core/request.ts';
import { diffRuns, digestOf, type RunDigest } from '../core/run-change.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { ConfigError, quote } from '../errors.ts';
import { gateJunit, gateMarkdown } from '../gate/formats.ts';
import { judgeAgainstBaseline, type GateResult } from '../gate/verdict.ts';
import { readSnapshot } from '../output/save.ts';
import { contenderName } from '../report/columns.ts';
import { linkForCommand } from './link.ts';
import { sampleShare } from './plan-run.ts';

/**
 * `--baseline REF`, read before any call: a snapshot file (a path ending in .json, or one that exists), a run id on
 * Temporal, or `schedule:NAME` (that schedule's newest completed run). A baseline that cannot be read is bad input (exit 2), and nothing is called.
 */
export async function readBaseline(ref: string, project: string, io: Io): Promise<RunDigest> {
  if (ref.endsWith('.json') || existsSync(resolve(io.cwd, ref))) {
    const file = resolve(io.cwd, ref);
    if (!existsSync(file)) throw new ConfigError(undefined, '--baseline', `no snapshot file ${quote(ref)}`);
    return digestOf(readSnapshot(file));
  }
  const link = await linkForCommand(project, io, 'compare');
  try {
    // `schedule:NAME`: the newest completed (or regressed) run of the project's schedule.
    if (ref.startsWith('schedule:')) {
      const name = ref.slice('schedule:'.length);
      const view = await link.schedules.describe(project, name);
      const runs = await link.schedules.runsOf(view.id, 50);
      const newest = runs.find((r) => r.state === 'completed' || r.state === 'regressed');
      if (!newest) throw new Error(`schedule ${quote(name)} has no completed run yet`);
      return await link.runs.digest(newest.runId);
    }
    return await link.runs.digest(ref);
  } catch (error) {
    throw new ConfigError(
      undefined,
      '--baseline',
      `${quote(ref)}: ${(error as Error).message.split('\n')[0]} (give a run id, a snapshot file or schedule:NAME)`,
    );
  } finally {
    await link.close();
  }
}

/** A sampled run's share of its suite and its smallest dataset, for the gate to say what the sample can tell. */
function sampleOf(snapshot: Snapshot, population: Record<string, number>, seed: number) {
  const sampled: Record<string, number> = {};
  for (const c of snapshot.cases) sampled[c.dataset] = (sampled[c.dataset] ?? 0) + 1;
  return { share: sampleShare(sampled, population), cases: Math.min(...Object.values(sampled)), seed };
}

/**
 * Judges a finished run against its baseline, says the verdicts, appends them as Markdown to GitHub's step summary
 * when `GITHUB_STEP_SUMMARY` names one, and answers whether the command fails: on a regression when `--fail-on
 * regression`, which is the default where `CI` is set.
 */
export function gateRun(
  baseline: RunDigest,
  snapshot: Snapshot,
  bars: GateRequest,
  io: Io,
  /** A sampled run's sample, and each dataset's cases before sampling. */
  sampled?: { sample: Sample; population: Record<string, number> },
): { gate: GateResult; fails: boolean; markdown: string; junit: () => string } {
  const names = new Map(snapshot.contenders.map((c) => [c.key, contenderName(c)]));
  const label = (key: string) => names.get(key) ?? key;
  const gate = judgeAgainstBaseline(
    diffRuns(baseline, digestOf(snapshot)),
    {
      ...(bars.minDrop !== undefined ? { minDrop: bars.minDrop } : {}),
      ...(bars.maxDrop !== undefined ? { maxDrop: bars.maxDrop } : {}),
      ...(sampled ? { sample: sampleOf(snapshot, sampled.population, sampled.sample.seed) } : {}),
    },
    label,
  );
  const uses = Object.values(snapshot.cache ?? {});
  const priced = uses.every((u) => !u.unpriced);
  const paid = uses.reduce((sum, u) => sum + u.paidUsd, 0);
  const costs = uses.length
    ? {
        paidUsd: priced ? paid : null,
        savedUsd: priced ? uses.reduce((sum, u) => sum + u.replyCostUsd, 0) - paid : null,
      }
    : undefined;
  const markdown = gateMarkdown(gate, label, costs);
  io.stderr.write(
    (gate.failed
      ? pc.red(`gate: ${gate.reasons.length} regressed against ${gate.baseline}`)
      : pc.green(`gate: no regression against ${gate.baseline}`)) +
      '\n' +
      gate.reasons.map((r) => `  ${r}\n`).join('') +
      gate.rows
        .map(
          (r) =>
            `  ${label(r.contender)} on ${r.dataset}: ${r.verdict}${r.diff !== null ? ` (${r.diff > 0 ? '+' : ''}${r.diff} points, n = ${r.n})` : ''}\n`,
        )
        .join('') +
      pc.dim(`  paired tests: ${gate.clustering}\n`) +
      (gate.sample
        ? pc.yellow(
            `  a sample (${gate.sample.share}): at 80 % power the gate detects a drop of ~${gate.sample.detectable} points or more\n`,
          )
        : ''),
  );
  const summary = io.env.GITHUB_STEP_SUMMARY;
  // GitHub reads the step summary as the job's steps append to it.
  if (summary) appendFileSync(summary, markdown);
  const failOn = bars.failOn ?? (io.env.CI ? 'regression' : 'never');
  const experiments = new Map(snapshot.experiments.map((e) => [e.id, e]));
  const junit = () =>
    gateJunit(
      gate,
      label,
      snapshot.results.flatMap((r) => {
        const e = experiments.get(r.experimentId);
        return r.status === 'error' && e
          ? [{ contender: e.contender, dataset: e.dataset, caseKey: r.caseKey, error: r.error ?? 'failed' }]
          : [];
      }),
    );
  return { gate, fails: gate.failed && failOn === 'regression', markdown, junit };
}
