import { describe, expect, it } from 'vitest';
import { batchLabel, cannotServeDelay, nextPollDelay, parseBatchPoll } from '../../src/core/batch.ts';

describe('nextPollDelay', () => {
  it.each([
    [undefined, [30, 600], 30],
    [30, [30, 600], 60],
    [480, [30, 600], 600],
    [600, [30, 600], 600],
    [1, [2, 8], 2],
    [4, [2, 8], 8],
  ] as const)('after %s within %j waits %s', (previous, bounds, want) => {
    expect(nextPollDelay(previous, [...bounds])).toBe(want);
  });
});

describe('cannotServeDelay', () => {
  it.each([
    [1, 30, 2],
    [2, 30, 4],
    [4, 30, 16],
    [5, 30, 30],
    [9, 30, 30],
    [1, 0.2, 0.2],
    [3, 5, 5],
  ] as const)('after try %s, with a first look after %s s, waits %s s', (attempt, first, want) => {
    expect(cannotServeDelay(attempt, first)).toBe(want);
  });
});

describe('parseBatchPoll', () => {
  it.each([
    [undefined, [30, 600]],
    ['', [30, 600]],
    ['1,4', [1, 4]],
    [' 0.5 , 2 ', [0.5, 2]],
    ['4,1', undefined],
    ['0,4', undefined],
    ['fast', undefined],
    ['1,2,3', undefined],
  ] as const)('reads %j as %j', (text, want) => {
    expect(parseBatchPoll(text)).toEqual(want);
  });
});

describe('batchLabel', () => {
  it.each([
    [{ openai: 0.5 }, 'batch, −50 %'],
    [{ a: 0.5, b: 0.5 }, 'batch, −50 %'],
    [{ a: 0.5, b: 0.25 }, 'batch, −50 % / −25 %'],
    [{}, 'batch, no discount'],
  ])('labels %j as %s', (discounts, want) => {
    expect(batchLabel(discounts)).toBe(want);
  });
});
