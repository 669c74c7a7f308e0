import { describe, expect, it } from 'vitest';
import { capTrajectory, STEP_TEXT_CAP, TRAJECTORY_CAP } from '../../src/core/results.ts';

const USAGE = { inputTokens: 10, outputTokens: 3, costUsd: null };
/** A step as runAgent records it: one call to `tool` with `args`, run with `result` (none on the last step). */
const step = (index: number, args: Record<string, unknown>, result?: string, status = 'tool_calls') => ({
  index,
  request: { messages: Array.from({ length: index + 1 }, () => ({ role: 'user', content: 'x' })) },
  reply: { text: '', toolCalls: [{ id: `c${index}`, name: 'tool', arguments: args }] },
  toolRuns: result === undefined ? [] : [{ call: { id: `c${index}` }, status: 'ok', result }],
  usage: USAGE,
  latency: 0.2,
  status,
});

describe('capTrajectory: an agent reply’s trajectory as a result keeps it', () => {
  it.each([
    ['a reply without a trajectory', { output: 1 }, {}],
    ['no reply at all', undefined, {}],
    ['a trajectory that is not a list', { trajectory: 'x' }, {}],
  ])('%s: nothing', (_, reply, want) => {
    expect(capTrajectory(reply)).toEqual(want);
  });

  it('keeps each step: messages sent, its calls with how they ran and their results, tokens, latency, status', () => {
    const reply = {
      trajectory: [
        step(0, { city: 'Paris' }, '18'),
        { ...step(1, {}), reply: { text: 'done', toolCalls: [] }, status: 'answer' },
      ],
    };
    expect(capTrajectory(reply)).toEqual({
      trajectory: [
        {
          index: 0,
          sent: 1,
          text: '',
          calls: [{ id: 'c0', name: 'tool', arguments: { city: 'Paris' }, status: 'ok', result: '18' }],
          usage: USAGE,
          latency: 0.2,
          status: 'tool_calls',
        },
        { index: 1, sent: 2, text: 'done', calls: [], usage: USAGE, latency: 0.2, status: 'answer' },
      ],
    });
  });

  it('caps a long result and long arguments at STEP_TEXT_CAP characters', () => {
    const long = 'y'.repeat(STEP_TEXT_CAP + 50);
    const [kept] = capTrajectory({ trajectory: [step(0, { text: long }, long)] }).trajectory!;
    expect(kept!.calls[0]!.result).toHaveLength(STEP_TEXT_CAP + 1);
    expect(kept!.calls[0]!.arguments).toEqual({ cut: expect.stringMatching(/^\{"text":"y+…$/) as unknown });
  });

  it('keeps the whole under TRAJECTORY_CAP characters and counts the steps left out', () => {
    const big = 'z'.repeat(STEP_TEXT_CAP);
    const steps = Array.from({ length: 60 }, (_, i) => step(i, {}, big));
    const { trajectory, trajectoryCut } = capTrajectory({ trajectory: steps });
    expect(JSON.stringify(trajectory).length).toBeLessThanOrEqual(TRAJECTORY_CAP + 100);
    expect(trajectory!.length + trajectoryCut!).toBe(60);
    expect(trajectoryCut).toBeGreaterThan(30);
  });
});
