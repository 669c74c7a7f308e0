import { describe, expect, it } from 'vitest';
import {
  pairOutcome,
  pairwisePrompt,
  pairwiseReport,
  parsePick,
  type PairOutcome,
  type PairReading,
  type Position,
} from '../../src/judge/pairwise.ts';

describe('pairOutcome', () => {
  it.each<[Position | null, Position | null, PairOutcome]>([
    ['first', 'second', 'a'],
    ['second', 'first', 'b'],
    ['tie', 'tie', 'tie'],
    ['first', 'first', 'inconsistent'],
    ['second', 'second', 'inconsistent'],
    ['first', 'tie', 'inconsistent'],
    ['tie', 'first', 'inconsistent'],
    [null, 'first', 'failed'],
    ['first', null, 'failed'],
  ])('A first %j, B first %j → %j', (aFirst, bFirst, outcome) => {
    expect(pairOutcome({ aFirst, bFirst })).toBe(outcome);
  });
});

describe('parsePick', () => {
  it.each<[string, Position | null]>([
    ['{"reasoning":"x","winner":"first"}', 'first'],
    ['Sure. {"winner": "second"} done', 'second'],
    ['{"winner":"tie"}', 'tie'],
    ['{"winner":"A"}', null],
    ['{"winner":1}', null],
    ['first', null],
    ['', null],
  ])('%j → %j', (raw, pick) => {
    expect(parsePick(raw)).toBe(pick);
  });
});

const r = (
  caseKey: string,
  judge: string,
  aFirst: Position | null,
  bFirst: Position | null,
): PairReading => ({
  caseKey,
  judge,
  aFirst,
  bFirst,
});

describe('pairwiseReport', () => {
  it('a judge that always picks the first position counts no verdict and is 100 % position-biased', () => {
    const readings = ['c1', 'c2', 'c3', 'c4'].map((k) => r(k, 'j', 'first', 'first'));
    const rep = pairwiseReport('A', 'B', readings);
    expect(rep.judges[0]).toMatchObject({
      wins: 0,
      ties: 0,
      losses: 0,
      inconsistent: 4,
      positionBias: 1,
      p: 1,
    });
    expect(rep.overall).toMatchObject({ wins: 0, losses: 0, inconsistent: 4, cases: 4 });
  });

  it('win/tie/loss and the exact sign test on wins vs losses, ties dropped', () => {
    const readings = [
      ...Array.from({ length: 8 }, (_, i) => r(`w${i}`, 'j', 'first', 'second')),
      r('t', 'j', 'tie', 'tie'),
      r('l', 'j', 'second', 'first'),
      r('x', 'j', 'first', 'tie'),
      r('f', 'j', null, 'first'),
    ];
    const j = pairwiseReport('A', 'B', readings).judges[0]!;
    expect(j).toMatchObject({ wins: 8, ties: 1, losses: 1, inconsistent: 1, failed: 1, positionBias: 0 });
    // 2 · P(X ≤ 1), X ~ Bin(9, ½) = 2 · 10/512
    expect(j.p).toBeCloseTo(20 / 512, 12);
  });

  it("the overall verdict per case is the judges' majority of consistent verdicts, an even split a tie", () => {
    const readings = [
      r('c1', 'j1', 'first', 'second'),
      r('c1', 'j2', 'first', 'second'),
      r('c1', 'j3', 'second', 'first'),
      r('c2', 'j1', 'first', 'second'),
      r('c2', 'j2', 'second', 'first'),
      r('c2', 'j3', 'first', 'first'),
      r('c3', 'j1', 'first', 'first'),
      r('c3', 'j2', 'second', 'second'),
      r('c3', 'j3', null, null),
    ];
    const rep = pairwiseReport('A', 'B', readings);
    expect(rep.overall).toMatchObject({ wins: 1, ties: 1, losses: 0, inconsistent: 1, cases: 3 });
    expect(rep.judges.map((j) => [j.judge, j.positionBias])).toEqual([
      ['j1', 1],
      ['j2', 1],
      ['j3', 1],
    ]);
  });
});

describe('pairwisePrompt', () => {
  it('shows the replies in the order given', () => {
    const p = pairwisePrompt({ input: 'Q', first: 'one', second: 'two', rubric: ' be kind ' });
    expect(p.indexOf('<first>\none')).toBeLessThan(p.indexOf('<second>\ntwo'));
    expect(p).toContain('<rubric>\nbe kind\n</rubric>');
  });
});
