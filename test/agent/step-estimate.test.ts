import { describe, expect, it } from 'vitest';
import { agentSteps, expectedToolCalls, measuredSteps } from '../../src/agent/core/step-estimate.ts';
import type { CompletionRequest, Json } from '../../src/api/types.ts';
import { estimateConversationTokens, estimateReplyTokens } from '../../src/core/estimate.ts';
import type { TrajectoryStep } from '../../src/core/results.ts';

const first: CompletionRequest = {
  system: 'plan',
  user: 'How warm is it in Oslo?',
  messages: [{ role: 'user', content: 'How warm is it in Oslo?' }],
};
const weather = { name: 'weather', arguments: { city: 'Oslo' } };
const fahrenheit = { name: 'to_fahrenheit', arguments: { celsius: 4 } };

describe('expectedToolCalls', () => {
  it.each<[string, Json, number]>([
    ['a list of calls', { tool_calls: [weather, fahrenheit] }, 2],
    ['no tool_calls key', { answer: 'warm' }, 0],
    ['a text answer', 'warm', 0],
    ['a list of something else', { tool_calls: [{ tool: 'weather' }] }, 0],
  ])('%s: %i calls', (_what, expected, calls) => {
    expect(expectedToolCalls(expected)).toHaveLength(calls);
  });
});

describe("agentSteps: an agent case's model steps as compare -n counts them", () => {
  it.each<[string, Json, number | undefined, number]>([
    ['a step per expected call and one to answer', { tool_calls: [weather, fahrenheit] }, undefined, 3],
    ['as many as a saved run measured', { tool_calls: [weather] }, 4, 4],
    ['a mean of a saved run rounds to whole steps', { tool_calls: [weather] }, 2.4, 2],
    ['one step without expected calls', { answer: 'warm' }, undefined, 1],
  ])('%s', (_what, expected, measured, steps) => {
    expect(agentSteps(first, expected, measured)).toHaveLength(steps);
  });

  it('sends each step the conversation so far: every step longer than the one before', () => {
    const steps = agentSteps(first, { tool_calls: [weather, fahrenheit] });
    const sizes = steps.map((s) => estimateConversationTokens(s.request));
    expect(sizes[0]).toBe(estimateConversationTokens(first));
    expect(sizes[1]).toBeGreaterThan(sizes[0]!);
    expect(sizes[2]).toBeGreaterThan(sizes[1]!);
    expect(steps[2]!.request.messages!.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
  });

  it('writes a call per tool step and the answer last: the expected answer beside the calls when there is one', () => {
    const [call, answer] = agentSteps(first, { tool_calls: [weather], answer: 'It is 4 °C in Oslo.' });
    expect(call!.outputTokens).toBe(estimateReplyTokens(JSON.stringify([{ id: 'call_1', ...weather }])));
    expect(answer!.outputTokens).toBe(estimateReplyTokens('{\n  "answer": "It is 4 °C in Oslo."\n}'));
    const [, quoting] = agentSteps(first, { tool_calls: [weather] });
    expect(quoting!.outputTokens).toBe(estimateReplyTokens('{"city":"Oslo"}'));
  });
});

describe('measuredSteps: the steps a saved run took, per case', () => {
  const step: TrajectoryStep = {
    index: 0,
    sent: 1,
    text: '',
    calls: [],
    usage: { inputTokens: null, outputTokens: null, costUsd: null },
    latency: null,
    status: 'answer',
  };
  it.each<[string, Parameters<typeof measuredSteps>[0], [string, number][]]>([
    ['the steps a result keeps', [{ caseKey: 'a', metrics: {}, trajectory: [step, step] }], [['a', 2]]],
    [
      'and those cut to keep it small',
      [{ caseKey: 'a', metrics: {}, trajectory: [step], trajectoryCut: 3 }],
      [['a', 4]],
    ],
    ['else its steps metric', [{ caseKey: 'a', metrics: { steps: 3 } }], [['a', 3]]],
    [
      'the mean over contenders',
      [
        { caseKey: 'a', metrics: { steps: 2 } },
        { caseKey: 'a', metrics: { steps: 3 } },
      ],
      [['a', 2.5]],
    ],
    ['a case that took no steps is left out', [{ caseKey: 'a', metrics: { steps: null } }], []],
  ])('%s', (_what, results, want) => {
    expect([...measuredSteps(results)]).toEqual(want);
  });
});
