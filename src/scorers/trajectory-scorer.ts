import type { AgentReply } from '../agent/run-agent.ts';
import {
  ExpectedToolCallsSchema,
  matchTrajectory,
  type ArgumentMode,
  type MatchMode,
  type ToolCall,
} from '../agent/core/trajectory.ts';
import { Scorer, type ScorerTools } from '../api/scorer.ts';
import type { Case, Json, Metric, Reply, Score } from '../api/types.ts';

/** How a TrajectoryScorer judges: the match mode, the argument mode, and a scorer of the final answer if any. */
export interface TrajectoryOptions {
  mode?: MatchMode;
  args?: ArgumentMode;
  /** Scores the final answer against the case (a field scorer, a judge's scorer); its value joins the score. */
  answer?: Scorer;
}

const METRICS: Metric[] = [
  {
    name: 'score',
    description: 'the calls made pass the match mode (and the answer its scorer)',
    primary: true,
  },
  { name: 'tool_precision', description: 'calls made that were expected (name and arguments, any order)' },
  { name: 'tool_recall', description: 'expected calls that were made (name and arguments, any order)' },
  { name: 'tool_f1', description: 'harmonic mean of tool precision and recall' },
  { name: 'order_ok', description: 'the matched calls came in the expected order' },
  { name: 'steps', description: 'model steps the agent took (mean)', unit: 'count' },
];

/**
 * The calls an agent's reply made, in order, and its model steps: from its trajectory; a reply without one (a case's
 * own expected answer given as the reply, as `verify` grades it) offers its `output.tool_calls` where that is a list.
 */
export function callsOf(reply: Reply): { calls: ToolCall[]; steps: number } {
  const given = (reply as Partial<AgentReply>).trajectory;
  if (!given) {
    const output = reply.output;
    const listed =
      output !== null && typeof output === 'object' && !Array.isArray(output)
        ? ExpectedToolCallsSchema.safeParse(output.tool_calls)
        : undefined;
    return { calls: listed?.success ? listed.data : [], steps: 0 };
  }
  const trajectory = given;
  const calls = trajectory.flatMap((step) =>
    step.reply.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })),
  );
  return { calls, steps: trajectory.length };
}

const expectedCalls = (kase: Case): ToolCall[] | undefined => {
  const expected = kase.expected;
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return undefined;
  const parsed = ExpectedToolCallsSchema.safeParse(expected.tool_calls);
  return parsed.success ? parsed.data : undefined;
};

/**
 * Scores an agent's trajectory against `expected.tool_calls`: the match mode decides pass/fail, with tool precision,
 * recall and F1, order and steps beside it, and each call's status (matched, wrong arguments, invented, missing) in
 * the diagnostics. With an `answer` scorer the final answer's value multiplies the score.
 */
export class TrajectoryScorer extends Scorer {
  constructor(private readonly options: TrajectoryOptions = {}) {
    super();
  }

  metrics(): Metric[] {
    return this.options.answer
      ? [...METRICS, { name: 'answer', description: "the final answer's score" }]
      : METRICS;
  }

  async call(kase: Case, reply: Reply, context: Json, tools?: ScorerTools): Promise<Score> {
    // The answer's scorer may be asynchronous (a judge, lent the run's tools): awaited before the trajectory is judged.
    const answer = this.options.answer
      ? (await this.options.answer.call(kase, reply, context, tools)).value
      : undefined;
    return this.judge(kase, reply, answer, false);
  }

  /** A failed reply (maxSteps reached) scores 0 but keeps its trajectory's metrics: how far it got is worth seeing. */
  override failed(kase: Case, reply: Reply): Score {
    return this.judge(kase, reply, undefined, true);
  }

  override verify(kase: Case): string[] {
    return expectedCalls(kase) ? [] : ['expected.json has no tool_calls list of {name, arguments}'];
  }

  private judge(kase: Case, reply: Reply, answer: number | undefined, failed: boolean): Score {
    const expected = expectedCalls(kase) ?? [];
    const { calls, steps } = callsOf(reply);
    const verdict = matchTrajectory(calls, expected, { ...this.options, steps });
    const value = failed ? 0 : verdict.score * (answer ?? 1);
    return {
      value,
      metrics: {
        ...verdict.metrics,
        score: value,
        ...(this.options.answer ? { answer: answer ?? (failed ? 0 : null) } : {}),
      },
      outcomes: Object.fromEntries(
        (['matched', 'wrong_arguments', 'invented', 'missing'] as const).map((status) => [
          status,
          verdict.calls.filter((c) => c.status === status).length,
        ]),
      ),
      diagnostics: { calls: verdict.calls.map((c) => ({ ...c })) },
    };
  }
}
