import type { Adapter } from '../api/adapter.ts';
import { completionRequestOf } from '../api/conversation.ts';
import type { CompletionRequest, ModelRequest, Provider, ProviderResponse } from '../api/types.ts';
import {
  estimateConversationTokens,
  estimateRequestTokens,
  expectedReplyTokens,
  guessedVerdictTokens,
  judgeEstimate,
  measuredVerdictTokens,
  type Estimate,
  type JudgeLoad,
} from '../core/estimate.ts';
import { agentSteps, expectedToolCalls, measuredSteps } from '../agent/core/step-estimate.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { PAIRWISE_SYSTEM, pairwisePrompt } from '../judge/pairwise.ts';
import { JUDGE_SYSTEM, judgePrompt } from '../judge/prompt.ts';
import { JudgeScorer } from '../scorers/judge.ts';
import type { Contender } from '../core/matrix.ts';
import { readCatalogs } from '../providers/catalog-check.ts';
import type { LoadedCase } from '../suite/cases.ts';
import type { PlannedRun } from './plan-run.ts';
import { clustersOfCases } from '../core/cluster-se.ts';
import { differenceDesignEffect, differenceSpread } from '../core/comparisons.ts';
import { newestSnapshotFile, readSnapshot, snapshotDir } from '../output/save.ts';

/**
 * The first request the adapter builds for a case, caught by a model that answers nothing: what the provider is sent,
 * system prompt and all. `undefined` when the adapter asks nothing before it fails.
 */
export async function sampleRequest(
  adapter: Adapter,
  kase: LoadedCase,
): Promise<CompletionRequest | undefined> {
  let first: CompletionRequest | undefined;
  const model = {
    id: 'estimate/sample',
    name: 'sample',
    provider: 'estimate',
    complete(request: ModelRequest): Promise<ProviderResponse> {
      first ??= completionRequestOf(request);
      return Promise.resolve({ text: '', usage: { inputTokens: null, outputTokens: null, costUsd: null } });
    },
  };
  try {
    await adapter.prepare(kase.dataset);
    await adapter.call(kase, model);
  } catch {
    // An empty reply may well break the adapter's parser; the request it sent is all we need.
  }
  return first;
}

/** Counts a request's input tokens as the contender's provider will: its own counter, else the heuristic. */
function counter(provider: Provider | undefined, c: Contender) {
  const model = { id: c.id, name: c.id, ...(c.maxTokens !== null ? { maxTokens: c.maxTokens } : {}) };
  return async (request: CompletionRequest) =>
    provider?.countTokens ? await provider.countTokens(model, request) : estimateConversationTokens(request);
}

/** The share of the list price a provider's calls pay: a `--batch` run pays its provider's batch price. */
function priceShare(planned: PlannedRun, provider: string): number {
  return 1 - (planned.plan.settings.batch?.discounts[provider] ?? 0);
}

const newestRuns = new WeakMap<PlannedRun, Snapshot | null>();

/**
 * The suite's newest run saved where this request would save its own (`--destination`, else the lineup's
 * `results:`), read once per plan, for what the estimate measures rather than guesses (an agent's steps, a verdict's
 * tokens, the spread of per-case differences); `undefined` without one that reads.
 */
function newestRun(planned: PlannedRun): Snapshot | undefined {
  let run = newestRuns.get(planned);
  if (run === undefined) {
    const file = newestSnapshotFile(snapshotDir(planned.suite, { ...planned.save, autosave: true }));
    try {
      run = file ? readSnapshot(file) : null;
    } catch {
      run = null;
    }
    newestRuns.set(planned, run);
  }
  return run ?? undefined;
}

/**
 * The estimate per experiment (`-n`, and the closing line of a run): input tokens as the provider counts them — the
 * adapter's request for the dataset's first case, then each other case by how much longer or shorter its input is —,
 * output tokens from the expected answers as a model would write them, and dollars from the catalog prices. An
 * agent's case (one whose expected answer lists tool calls, or that took steps in the newest saved run) is a call per
 * model step, each sent the conversation so far (`agentSteps`).
 */
export async function estimateRun(planned: PlannedRun): Promise<Map<string, Estimate>> {
  const { suite, cases, plan } = planned;
  const byKey = new Map(cases.map((c) => [c.key, c]));
  // An unreadable catalog leaves the cost unknown; the dry run still prints the matrix.
  const catalogs =
    planned.catalogs ??
    (
      await readCatalogs(
        suite.registry,
        plan.contenders.map((c) => c.provider),
        { online: true },
      )
    ).catalogs;
  const prices = new Map<string, { inputPrice?: number; outputPrice?: number }>();
  for (const [name, catalog] of catalogs) {
    for (const entry of catalog.entries) prices.set(`${name}:${entry.id}`, entry);
  }
  const samples = new Map<string, { kase: LoadedCase; request: CompletionRequest | undefined }>();
  for (const e of plan.experiments) {
    if (samples.has(e.dataset)) continue;
    const kase = byKey.get(e.caseKeys[0]!)!;
    samples.set(e.dataset, { kase, request: await sampleRequest(suite.adapter, kase) });
  }
  const contenders = new Map(plan.contenders.map((c) => [c.key, c]));
  // Only a suite of agents reads its newest saved run: a large one is not read at every run's start for nothing.
  const agents = cases.some((c) => c.messages !== undefined || expectedToolCalls(c.expected).length > 0);
  const stepsOf = agents ? measuredSteps(newestRun(planned)?.results ?? []) : new Map<string, number>();
  const estimates = new Map<string, Estimate>();
  for (const e of plan.experiments) {
    const c = contenders.get(e.contender)!;
    const count = counter(suite.registry.get(c.provider), c);
    const sample = samples.get(e.dataset)!;
    // Cases of a dataset share the adapter's prompt; they differ by their input.
    const first = sample.request && (await count(sample.request));
    const base = first !== undefined ? first - (await count({ user: sample.kase.input })) : 0;
    let calls = 0;
    let inputTokens = 0;
    let outputTokens = 0;
    for (const key of e.caseKeys) {
      const kase = byKey.get(key)!;
      const own = base + (await count({ user: kase.input }));
      const measured = stepsOf.get(key);
      if (measured === undefined && expectedToolCalls(kase.expected).length === 0) {
        calls++;
        inputTokens += own;
        outputTokens += expectedReplyTokens(kase.expected);
        continue;
      }
      // An agent's step is sent the first request and the conversation grown since: counted as its growth.
      const template = sample.request ?? { user: kase.input };
      const from = first ?? (await count(template));
      for (const step of agentSteps(template, kase.expected, measured)) {
        calls++;
        inputTokens += own + (await count(step.request)) - from;
        outputTokens += step.outputTokens;
      }
    }
    const price = prices.get(`${c.provider}:${c.id}`);
    const known = price?.inputPrice !== undefined && price.outputPrice !== undefined;
    const full = known ? inputTokens * price.inputPrice! + outputTokens * price.outputPrice! : null;
    const costUsd = full === null ? null : full * priceShare(planned, c.provider);
    estimates.set(e.id, { calls, inputTokens, outputTokens, costUsd });
  }
  return estimates;
}

/** A judge model's per-token prices: its catalog's, else (a model its endpoint section does not list) the section's. */
function judgePrices(
  planned: PlannedRun,
  judge: Contender,
  catalog: readonly { id: string; inputPrice?: number; outputPrice?: number }[] | undefined,
): { inputPrice?: number; outputPrice?: number } | undefined {
  const entry = catalog?.find((e) => e.id === judge.id);
  if (entry?.inputPrice !== undefined) return entry;
  const prices = planned.suite.config.endpoints[judge.provider]?.prices;
  return prices ? { inputPrice: prices.input / 1e6, outputPrice: prices.output / 1e6 } : undefined;
}

/**
 * The judge's share of a run (`-n`): a call per reply, sample and panel member, each prompt as the judge will get it
 * with the expected answer standing for the reply, and with `--pairwise A B` two per B's case and member (the pair
 * in both orders); each verdict's tokens as the newest saved run measured them, else guessed from the verdict's form;
 * priced by each judge model's prices, at its batch price under `--batch`; `undefined` without a judge.
 */
export async function estimateJudge(
  planned: PlannedRun,
): Promise<{ load: JudgeLoad; estimate: Estimate } | undefined> {
  const { suite, cases, plan } = planned;
  const scorer = suite.scorer;
  if (!(scorer instanceof JudgeScorer)) return undefined;
  const { models, rubric, reference } = scorer.options;
  const byKey = new Map(cases.map((c) => [c.key, c]));
  const paired = new Set(plan.contenders.filter((c) => c.pairwiseWith).map((c) => c.key));
  const tokens = { verdicts: 0, pairs: 0, perVerdict: 0 };
  let replies = 0;
  let pairs = 0;
  for (const e of plan.experiments) {
    for (const key of e.caseKeys) {
      const kase = byKey.get(key)!;
      const reply =
        typeof kase.expected === 'string' ? kase.expected : JSON.stringify(kase.expected, null, 2);
      const rubricText = typeof rubric === 'function' ? rubric(kase) : rubric;
      if (paired.has(e.contender)) {
        // Both orders of a pair are one prompt's size: the two replies swap places.
        const user = pairwisePrompt({ input: kase.input, first: reply, second: reply, rubric: rubricText });
        tokens.pairs += 2 * estimateRequestTokens({ system: PAIRWISE_SYSTEM, user });
        pairs++;
      }
      if (!scorer.judges(kase)) continue;
      const user = judgePrompt({
        input: kase.input,
        reply: reply ?? '',
        ...(reference ? { expected: kase.expected } : {}),
        rubric: rubricText,
        scale: scorer.scale,
      });
      tokens.verdicts += estimateRequestTokens({ system: JUDGE_SYSTEM, user });
      replies++;
    }
  }
  tokens.perVerdict =
    measuredVerdictTokens(newestRun(planned)?.results ?? []) ??
    guessedVerdictTokens(scorer.scale.kind === 'pass_fail' ? 'pass' : scorer.scale.max);
  const judges = models.map((id) => suite.judges.get(id)).filter((c): c is Contender => c !== undefined);
  const { catalogs } = await readCatalogs(
    suite.registry,
    judges.map((c) => c.provider),
    { online: true },
  );
  const prices = judges.map((c) => {
    const listed = judgePrices(planned, c, catalogs.get(c.provider)?.entries);
    const share = priceShare(planned, c.provider);
    return listed?.inputPrice === undefined || listed.outputPrice === undefined
      ? listed
      : { inputPrice: listed.inputPrice * share, outputPrice: listed.outputPrice * share };
  });
  const load = { replies, samples: scorer.samples, members: models.length, ...(pairs ? { pairs } : {}) };
  return { load, estimate: judgeEstimate(load, tokens, prices) };
}

/**
 * A dry run's warnings about contenders that set no max_tokens for an endpoint whose own limit is unknown (a local
 * server's may be 512, or 16): their replies may be cut where nobody looks.
 */
export function maxTokensWarnings(planned: PlannedRun): string[] {
  const unset = planned.plan.contenders.filter(
    (c) => c.maxTokens === null && planned.suite.registry.get(c.provider)?.unknownDefaultMaxTokens,
  );
  const ids = [...new Set(unset.map((c) => c.id))];
  return ids.map(
    (id) =>
      `${id} sets no max_tokens, and its endpoint's default limit is unknown: replies may be cut at it ` +
      '(set max_tokens in the lineup, or --max-tokens)',
  );
}

/**
 * The spread of per-case differences in the suite's newest saved run, for `compare -n`'s detectable difference;
 * `undefined` when no run is saved or the newest cannot be read or paired.
 */
export function previousSpread(
  planned: PlannedRun,
): { runId: string; spread: number; designEffect?: number } | undefined {
  const snapshot = newestRun(planned);
  if (!snapshot) return undefined;
  try {
    const spread = differenceSpread(snapshot);
    const { clusters } = clustersOfCases(snapshot.cases);
    const designEffect = clusters.size ? differenceDesignEffect({ ...snapshot, clusters }) : undefined;
    return spread === undefined
      ? undefined
      : { runId: snapshot.runId, spread, ...(designEffect !== undefined ? { designEffect } : {}) };
  } catch {
    return undefined;
  }
}
