import type { CompletionRequest, Json, Message } from '../../api/types.ts';
import type { CaseResult } from '../../core/results.ts';
import { estimateReplyTokens, expectedReplyTokens } from '../../core/estimate.ts';
import { ExpectedToolCallsSchema, type ToolCall } from './trajectory.ts';

/** The calls a case's `expected.tool_calls` lists; `[]` when it lists none (a case answered in one step). */
export function expectedToolCalls(expected: Json): ToolCall[] {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) return [];
  const parsed = ExpectedToolCallsSchema.safeParse(expected.tool_calls);
  return parsed.success ? parsed.data : [];
}

/** One model step of an agent's case as the estimate counts it: what it is sent, and the tokens it writes. */
export interface StepEstimate {
  request: CompletionRequest;
  outputTokens: number;
}

/** A tool's result, unknown before it runs: guessed as long as the arguments it was called with. */
const guessedResult = (call: ToolCall): string => JSON.stringify(call.arguments);

/**
 * An agent case's model steps as `compare -n` counts them: `steps` of them (a saved run's count, else a step per
 * expected call and one to answer), each sent the conversation so far — the first request, then per call made the
 * assistant's call and its tool result — and each writing its call (name and arguments as JSON), the last the answer:
 * the expected answer beside `tool_calls`, else a sentence quoting the tools' results.
 */
export function agentSteps(first: CompletionRequest, expected: Json, steps?: number): StepEstimate[] {
  const calls = expectedToolCalls(expected);
  const count = Math.max(1, Math.round(steps ?? calls.length + 1));
  const { tool_calls: _, ...rest } =
    typeof expected === 'object' && expected !== null && !Array.isArray(expected) ? expected : {};
  const answer = Object.keys(rest).length
    ? expectedReplyTokens(rest)
    : estimateReplyTokens(calls.map(guessedResult).join('; '));
  const conversation: Message[] = first.messages
    ? [...first.messages]
    : [{ role: 'user', content: first.user }];
  const out: StepEstimate[] = [];
  for (let k = 0; k < count; k++) {
    const request = { ...first, messages: [...conversation] };
    const call = calls[Math.min(k, calls.length - 1)];
    if (k === count - 1 || !call) {
      out.push({ request, outputTokens: answer });
      continue;
    }
    const made = { id: `call_${k + 1}`, ...call };
    out.push({ request, outputTokens: estimateReplyTokens(JSON.stringify([made])) });
    conversation.push(
      { role: 'assistant', toolCalls: [made] },
      { role: 'tool', toolCallId: made.id, content: guessedResult(call) },
    );
  }
  return out;
}

/**
 * Each case's model steps in a saved run, the mean over its contenders: the steps its result keeps (and those cut to
 * keep it small), else its `steps` metric; a case with neither is left out.
 */
export function measuredSteps(
  results: readonly Pick<CaseResult, 'caseKey' | 'metrics' | 'trajectory' | 'trajectoryCut'>[],
): Map<string, number> {
  const sums = new Map<string, [number, number]>();
  for (const r of results) {
    const kept = r.trajectory ? r.trajectory.length + (r.trajectoryCut ?? 0) : undefined;
    const steps = kept ?? r.metrics.steps;
    if (typeof steps !== 'number' || !(steps > 0)) continue;
    const [sum, n] = sums.get(r.caseKey) ?? [0, 0];
    sums.set(r.caseKey, [sum + steps, n + 1]);
  }
  return new Map([...sums].map(([key, [sum, n]]) => [key, sum / n]));
}
