import { describe, expect, it } from 'vitest';
import type { AgentReply, AgentStep } from '../../src/agent/run-agent.ts';
import type { MatchMode } from '../../src/agent/core/trajectory.ts';
import type { Case, Json, Metric, Reply, Score } from '../../src/api/types.ts';
import { Scorer } from '../../src/api/scorer.ts';
import { TrajectoryScorer } from '../../src/scorers/trajectory-scorer.ts';

const USAGE = { inputTokens: 1, outputTokens: 1, costUsd: null };
/** A reply whose trajectory made these calls, one list per model step, then answered `answer`. */
function agentReply(steps: [string, Record<string, Json>][][], answer: Json = 'ok'): AgentReply {
  const trajectory: AgentStep[] = steps.map((calls, index) => ({
    index,
    request: { messages: [] },
    reply: {
      text: '',
      toolCalls: calls.map(([name, args], i) => ({ id: `c${index}.${i}`, name, arguments: args })),
    },
    toolRuns: [],
    usage: USAGE,
    latency: 0,
    status: 'tool_calls',
  }));
  trajectory.push({
    index: steps.length,
    request: { messages: [] },
    reply: { text: '', toolCalls: [] },
    toolRuns: [],
    usage: USAGE,
    latency: 0,
    status: 'answer',
  });
  return { output: answer, raw: JSON.stringify(answer), trajectory };
}

const kase = (expected: Json): Case => ({
  id: 'v',
  key: 'd/v',
  dataset: 'd',
  variant: 'v',
  input: '',
  expected,
  path: '/nowhere',
  metadata: {},
});
const EXPECTED = kase({
  tool_calls: [
    { name: 'weather', arguments: { city: 'Paris' } },
    { name: 'book', arguments: { hotel: 'H1' } },
  ],
});

/** Scores the answer's city: 1 when it is the expected one, 0.25 otherwise. */
class CityScorer extends Scorer {
  metrics(): Metric[] {
    return [{ name: 'city', description: 'the city', primary: true }];
  }
  call(kase: Case, reply: Reply): Score {
    const want = (kase.expected as Record<string, Json>).city;
    const value = (reply.output as Record<string, Json>).city === want ? 1 : 0.25;
    return { value, metrics: { city: value } };
  }
}

describe('TrajectoryScorer', () => {
  const inOrder = agentReply([[['weather', { city: 'Paris' }]], [['book', { hotel: 'H1', nights: 2 }]]]);
  const swapped = agentReply([
    [
      ['book', { hotel: 'H1' }],
      ['weather', { city: 'Paris' }],
    ],
  ]);
  it.each<[string, AgentReply, MatchMode, 'exact' | 'subset', number, Record<string, number>]>([
    [
      'in order, extra argument, subset args',
      inOrder,
      'strict',
      'subset',
      1,
      { tool_f1: 1, order_ok: 1, steps: 3 },
    ],
    [
      'in order, extra argument, exact args',
      inOrder,
      'strict',
      'exact',
      0,
      { tool_f1: 0.5, order_ok: 1, steps: 3 },
    ],
    ['swapped, strict', swapped, 'strict', 'exact', 0, { tool_f1: 1, order_ok: 0, steps: 2 }],
    ['swapped, unordered', swapped, 'unordered', 'exact', 1, { tool_f1: 1, order_ok: 0, steps: 2 }],
    ['swapped, subset', swapped, 'subset', 'exact', 1, { tool_precision: 1, tool_recall: 1 }],
    ['swapped, superset', swapped, 'superset', 'exact', 1, { tool_recall: 1 }],
  ])('%s', async (_, reply, mode, args, value, metrics) => {
    const score = await new TrajectoryScorer({ mode, args }).call(EXPECTED, reply, null);
    expect(score.value).toBe(value);
    expect(score.metrics).toMatchObject({ score: value, ...metrics });
  });

  it('names each call: matched, wrong arguments, invented, missing', async () => {
    const reply = agentReply([
      [
        ['weather', { city: 'Lyon' }],
        ['fly', {}],
      ],
    ]);
    const score = await new TrajectoryScorer().call(EXPECTED, reply, null);
    expect(score.outcomes).toEqual({ matched: 0, wrong_arguments: 1, invented: 1, missing: 1 });
    expect(score.diagnostics?.calls).toEqual([
      { status: 'wrong_arguments', name: 'weather', actual: 0, expected: 0 },
      { status: 'invented', name: 'fly', actual: 1, expected: null },
      { status: 'missing', name: 'book', actual: null, expected: 1 },
    ]);
  });

  it('multiplies by the final answer’s score when an answer scorer is set', async () => {
    const withAnswer = kase({ ...(EXPECTED.expected as Record<string, Json>), city: 'Paris' });
    const scorer = new TrajectoryScorer({ mode: 'unordered', answer: new CityScorer() });
    const right = await scorer.call(withAnswer, { ...swapped, output: { city: 'Paris' } }, null);
    const wrong = await scorer.call(withAnswer, { ...swapped, output: { city: 'Rome' } }, null);
    expect([right.value, right.metrics.answer]).toEqual([1, 1]);
    expect([wrong.value, wrong.metrics.answer]).toEqual([0.25, 0.25]);
    expect(scorer.metrics().map((m) => m.name)).toContain('answer');
  });

  it('scores a failed reply 0 but keeps how far its trajectory got', () => {
    const reply = { ...agentReply([[['weather', { city: 'Paris' }]]]), error: 'max_steps: …' };
    const score = new TrajectoryScorer().failed(EXPECTED, reply);
    expect(score.value).toBe(0);
    expect(score.metrics).toMatchObject({ score: 0, tool_recall: 0.5, tool_precision: 1 });
  });

  it('verify names a case without expected tool_calls', () => {
    expect(new TrajectoryScorer().verify(kase({ answer: 1 }))).toEqual([
      'expected.json has no tool_calls list of {name, arguments}',
    ]);
    expect(new TrajectoryScorer().verify(EXPECTED)).toEqual([]);
  });

  it('gives a case its own expected answer full marks (the check verify makes before a run), calls read from output.tool_calls', async () => {
    const reply = { output: EXPECTED.expected, raw: JSON.stringify(EXPECTED.expected) };
    const score = await new TrajectoryScorer({ mode: 'strict' }).call(EXPECTED, reply, {});
    expect(score.value).toBe(1);
    expect(score.metrics).toMatchObject({ tool_f1: 1, order_ok: 1 });
  });
});
