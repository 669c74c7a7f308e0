import { availableParallelism } from 'node:os';
import pc from 'picocolors';
import type { Json } from '../api/types.ts';
import { estimateTokens, type Estimate } from '../core/estimate.ts';
import type { Plan } from '../core/plan.ts';
import type { LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { buildPlan } from '../suite/plan.ts';
import { casesForRun } from './cases.ts';
import type { Io } from './io.ts';
import { openSuite } from './open-suite.ts';
import type { RunFlags } from './options.ts';

/** A planned run with the suite and cases it was planned from. */
export interface PlannedRun {
  suite: LoadedSuite;
  cases: LoadedCase[];
  plan: Plan;
}

/** Opens the suite and expands it into a Plan from the flags of `run`/`compare`; warns about refusals on stderr. */
export async function planRun(flags: RunFlags, io: Io, models?: string[]): Promise<PlannedRun> {
  const suite = await openSuite(flags, io);
  const cases = casesForRun(suite, flags, io);
  const plan = buildPlan(suite, cases, {
    models,
    overrides: {
      ...(flags.effort ? { effort: flags.effort } : {}),
      ...(flags.temperature ? { temperature: flags.temperature } : {}),
      ...(flags.maxTokens ? { maxTokens: flags.maxTokens } : {}),
    },
    parallelism: flags.parallelism,
    concurrency: flags.concurrency ?? availableParallelism(),
    options: JSON.parse(JSON.stringify(flags)) as Record<string, Json>,
  });
  for (const r of plan.refused) io.stderr.write(pc.yellow(`warning: ${r.message}`) + '\n');
  return { suite, cases, plan };
}

/** The dry run's estimate per experiment, from case sizes and the providers' catalog prices. */
export async function estimateRun({ suite, cases, plan }: PlannedRun): Promise<Map<string, Estimate>> {
  const byKey = new Map(cases.map((c) => [c.key, c]));
  const prices = new Map<string, { inputPrice?: number; outputPrice?: number }>();
  for (const provider of suite.registry.all()) {
    try {
      for (const entry of await provider.catalog()) prices.set(`${provider.name}:${entry.id}`, entry);
    } catch {
      // An unreachable catalog leaves the cost unknown; the dry run still prints the matrix.
    }
  }
  const contenders = new Map(plan.contenders.map((c) => [c.key, c]));
  const estimates = new Map<string, Estimate>();
  for (const e of plan.experiments) {
    const c = contenders.get(e.contender)!;
    const price = prices.get(`${c.provider}:${c.id}`);
    let inputTokens = 0;
    let outputTokens = 0;
    for (const key of e.caseKeys) {
      const kase = byKey.get(key)!;
      inputTokens += estimateTokens(kase.input);
      outputTokens += estimateTokens(JSON.stringify(kase.expected));
    }
    const known = price?.inputPrice !== undefined && price.outputPrice !== undefined;
    const costUsd = known ? inputTokens * price.inputPrice! + outputTokens * price.outputPrice! : null;
    estimates.set(e.id, { calls: e.caseKeys.length, inputTokens, outputTokens, costUsd });
  }
  return estimates;
}
