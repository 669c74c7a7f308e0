import type { Plan } from '../core/plan.ts';
import { ConfigError, quote } from '../errors.ts';
import { contenderName } from '../report/columns.ts';
import { JudgeScorer } from '../scorers/judge.ts';
import type { LoadedSuite } from '../suite/load.ts';

/** A contender of the plan as `--pairwise` names it: as the lineup names it (with its settings), its key, or its id. */
function find(plan: Plan, name: string): Plan['contenders'][number] {
  const named = plan.contenders.filter((c) => contenderName(c) === name || c.key === name);
  const byId = plan.contenders.filter((c) => c.id === name);
  const found = named.length === 1 ? named : byId.length === 1 ? byId : [];
  if (found.length) return found[0]!;
  const names = plan.contenders.map((c) => quote(contenderName(c))).join(', ');
  throw new ConfigError(
    undefined,
    '--pairwise',
    `${quote(name)} is not a contender of the lineup; its contenders: ${names}`,
  );
}

/**
 * `--pairwise A B`: marks B's contender with A's, so whichever worker runs B's cases has the judge compare B's reply
 * with A's in both orders. Bad input (not two names, a name the lineup lacks, no judge, with `--repeat`) is refused
 * before any call.
 */
export function pairUp(
  plan: Plan,
  names: readonly string[],
  suite: Pick<LoadedSuite, 'scorer' | 'config'>,
  noCache = false,
): void {
  if (names.length !== 2)
    throw new ConfigError(
      undefined,
      '--pairwise',
      `takes two contenders A B, got ${names.map((n) => quote(n)).join(' ')}`,
    );
  if (!(suite.scorer instanceof JudgeScorer))
    throw new ConfigError(
      suite.config.file,
      'judge',
      '--pairwise needs a judge: the lineup has no judge: section',
    );
  // B's case reads A's reply through the reply cache: without it, A's every answer would be paid twice.
  if (noCache)
    throw new ConfigError(
      undefined,
      '--pairwise',
      "reads A's replies from the reply cache: leave --no-cache out",
    );
  if (plan.contenders.some((c) => c.repeat !== undefined))
    throw new ConfigError(undefined, '--pairwise', 'compares single replies: leave --repeat out');
  const a = find(plan, names[0]!);
  const b = find(plan, names[1]!);
  if (a.key === b.key)
    throw new ConfigError(
      undefined,
      '--pairwise',
      `${quote(names[0])} and ${quote(names[1])} are one contender`,
    );
  const { pairwiseWith: _, ...against } = a;
  plan.contenders = plan.contenders.map((c) => (c.key === b.key ? { ...c, pairwiseWith: against } : c));
}
