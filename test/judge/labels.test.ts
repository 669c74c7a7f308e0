import { describe, expect, it } from 'vitest';
import type { Scale } from '../../src/judge/config.ts';
import {
  categoriesOf,
  judgeAgreements,
  parseLabels,
  parseLabelValue,
  type Label,
} from '../../src/judge/labels.ts';

const PF: Scale = { kind: 'pass_fail' };
const R15: Scale = { kind: 'range', min: 1, max: 5 };
const SHA = (c: string) => c.repeat(64);
const line = (l: Partial<Label>) =>
  JSON.stringify({ case: 'd/v/1', reply_sha: SHA('a'), label: 'pass', at: 't', ...l });

describe('parseLabels', () => {
  it.each<[string, number | null, string]>([
    [`${line({})}\n\n${line({ label: 3, by: 'ana' })}\n`, null, ''],
    [`${line({})}\n{"case": "x"`, 2, 'not JSON'],
    [line({ reply_sha: 'abc' }), 1, 'reply_sha is not a sha256'],
    [line({ label: 'maybe' as never }), 1, 'not a label: label'],
    [JSON.stringify({ case: 'c', reply_sha: SHA('b'), label: 'pass', at: 't', extra: 1 }), 1, 'not a label'],
  ])('%j → line %j', (text, bad, message) => {
    const read = parseLabels(text);
    if (bad === null) expect(read).toMatchObject({ labels: [{ label: 'pass' }, { label: 3, by: 'ana' }] });
    else {
      expect(read).toMatchObject({ problem: { line: bad } });
      expect('problem' in read && read.problem.message).toContain(message);
    }
  });
});

describe('parseLabelValue', () => {
  it.each<[string, Scale, Label['label'] | undefined]>([
    ['pass', PF, 'pass'],
    ['fail', PF, 'fail'],
    ['1', PF, undefined],
    ['4', R15, 4],
    ['6', R15, undefined],
    ['pass', R15, undefined],
    ['4.5', R15, undefined],
  ])('%j on %j → %j', (text, scale, value) => {
    expect(parseLabelValue(text, scale)).toBe(value);
  });

  it('names the categories in order', () => {
    expect(categoriesOf(PF)).toEqual(['fail', 'pass']);
    expect(categoriesOf(R15)).toEqual(['1', '2', '3', '4', '5']);
  });
});

describe('judgeAgreements', () => {
  const result = (caseKey: string, reply: string, metrics: Record<string, number | null>) => ({
    caseKey,
    reply,
    metrics,
  });
  const sha = (text: string) => SHA(text[0]!);
  const labels: Label[] = [
    { case: 'k1', reply_sha: SHA('a'), label: 'fail', at: 't' },
    { case: 'k1', reply_sha: SHA('a'), label: 'pass', at: 't2' },
    { case: 'k2', reply_sha: SHA('b'), label: 'fail', at: 't' },
    { case: 'k3', reply_sha: SHA('c'), label: 'pass', at: 't' },
  ];

  it("per panel member and the panel; the newest label wins; a reply whose text changed is not the label's", () => {
    const results = [
      result('k1', 'a1', { judge: 1, 'judge.x': 1, 'judge.y': 0 }),
      result('k2', 'b1', { judge: 0, 'judge.x': 0, 'judge.y': null }),
      result('k3', 'zz', { judge: 1, 'judge.x': 1, 'judge.y': 1 }),
    ];
    const found = judgeAgreements({ results } as never, labels, { scale: PF, models: ['x', 'y'] }, sha);
    expect(found.map((a) => [a.judge, a.n, a.agreement])).toEqual([
      ['x', 2, 1],
      ['y', 1, 0],
      ['panel', 2, 1],
    ]);
    expect(found[0]!.confusion).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('nothing when no label names a reply of the run', () => {
    const results = [result('k9', 'a', { judge: 1 })];
    expect(judgeAgreements({ results } as never, labels, { scale: PF, models: ['x'] }, sha)).toEqual([]);
  });

  it("a scale's verdict on 0–1 is read back as its nearest point, κ weighted", () => {
    const scaled: Label[] = [{ case: 'k', reply_sha: SHA('a'), label: 4, at: 't' }];
    const [a] = judgeAgreements(
      { results: [result('k', 'a', { judge: 0.75 })] } as never,
      scaled,
      { scale: R15, models: ['x'] },
      sha,
    );
    expect(a).toMatchObject({ n: 1, agreement: 1, weighted: true });
    expect(a!.confusion[3]![3]).toBe(1);
  });
});
