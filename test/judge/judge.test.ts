import { describe, expect, it } from 'vitest';
import { JudgeConfigSchema, judgeSpec, parseScale, type Scale } from '../../src/judge/config.ts';
import { combine, panelVerdict, sampleVerdict } from '../../src/judge/panel.ts';
import { judgePrompt } from '../../src/judge/prompt.ts';
import { firstJsonObject, parseVerdict, toUnit, type VerdictResult } from '../../src/judge/verdict.ts';

const PF: Scale = { kind: 'pass_fail' };
const R15: Scale = { kind: 'range', min: 1, max: 5 };

describe('parseScale', () => {
  it.each<[string, Scale | undefined]>([
    ['pass_fail', PF],
    ['1-5', R15],
    ['0-10', { kind: 'range', min: 0, max: 10 }],
    ['5-1', undefined],
    ['3-3', undefined],
    ['1.5-5', undefined],
    ['pass-fail', undefined],
    ['', undefined],
    ['1-', undefined],
  ])('%j → %j', (text, scale) => {
    expect(parseScale(text)).toEqual(scale);
  });
});

describe('the judge config', () => {
  it.each<[unknown, string | null]>([
    [{ model: 'fake/judge', rubric: 'Is it polite?', scale: 'pass_fail' }, null],
    [{ models: ['a/x', 'b/y', 'c/z'], rubric_file: 'rubric.md', scale: '1-5', samples: 3 }, null],
    [{ model: 'fake/judge', rubric: 'r', scale: '1-5', reference: 'expected' }, null],
    [{ rubric: 'r', scale: 'pass_fail' }, 'give exactly one of model or models'],
    [
      { model: 'a/x', models: ['b/y'], rubric: 'r', scale: 'pass_fail' },
      'give exactly one of model or models',
    ],
    [{ model: 'a/x', scale: 'pass_fail' }, 'give exactly one of rubric or rubric_file'],
    [
      { model: 'a/x', rubric: 'r', rubric_file: 'f', scale: 'pass_fail' },
      'give exactly one of rubric or rubric_file',
    ],
    [{ model: 'a/x', rubric: '  \n', scale: 'pass_fail' }, 'the rubric is empty'],
    [{ model: 'a/x', rubric: 'r', scale: '1to5' }, "the scale must be 'pass_fail'"],
    [{ model: 'a/x', rubric: 'r', scale: 'pass_fail', samples: 0 }, 'Too small'],
    [{ model: 'a/x', rubric: 'r', scale: 'pass_fail', reference: 'input' }, 'expected'],
    [{ models: [], rubric: 'r', scale: 'pass_fail' }, 'the panel names no model'],
    [{ models: ['a/x', 'a/x'], rubric: 'r', scale: 'pass_fail' }, 'the panel names a model twice'],
    [{ model: 'a/x', rubric: 'r', scale: 'pass_fail', temperature: 0 }, 'temperature'],
  ])('%j → %s', (config, problem) => {
    const parsed = JudgeConfigSchema.safeParse(config);
    if (problem === null) expect(parsed.success).toBe(true);
    else {
      expect(parsed.success).toBe(false);
      expect(JSON.stringify(parsed.error!.issues)).toContain(problem);
    }
  });

  it('describes a panel and a single judge alike', () => {
    const one = judgeSpec(JudgeConfigSchema.parse({ model: 'fake/judge', rubric: 'r', scale: '1-5' }), 'r');
    expect(one).toEqual({ models: ['fake/judge'], rubric: 'r', scale: R15, reference: false, samples: 1 });
    const panel = JudgeConfigSchema.parse({
      models: ['a/x', 'b/y'],
      rubric: 'r',
      scale: 'pass_fail',
      reference: 'expected',
      samples: 3,
    });
    expect(judgeSpec(panel, 'r')).toEqual({
      models: ['a/x', 'b/y'],
      rubric: 'r',
      scale: PF,
      reference: true,
      samples: 3,
    });
  });
});

describe('judgePrompt', () => {
  it('shows the input, the raw reply, the rubric and the scale, and asks for a JSON verdict', () => {
    const p = judgePrompt({ input: 'Say hi', reply: 'Hello!', rubric: 'Is it a greeting?', scale: PF });
    expect(p).toContain('<input>\nSay hi\n</input>');
    expect(p).toContain('<reply>\nHello!\n</reply>');
    expect(p).toContain('<rubric>\nIs it a greeting?\n</rubric>');
    expect(p).toContain('"pass" or the string "fail"');
    expect(p).toContain('{"reasoning": string, "score": ...}');
    expect(p).not.toContain('<expected>');
  });

  it.each([
    ['Paris', '<expected>\nParis\n</expected>'],
    [{ city: 'Paris' }, '<expected>\n{\n  "city": "Paris"\n}\n</expected>'],
  ])('shows the expected answer %j when given', (expected, shown) => {
    const p = judgePrompt({ input: 'q', reply: 'r', expected, rubric: 'x', scale: R15 });
    expect(p).toContain(shown);
    expect(p).toContain('an integer from 1 (worst) to 5 (best)');
  });
});

describe('toUnit', () => {
  it.each<[Scale, 'pass' | 'fail' | number, number]>([
    [PF, 'pass', 1],
    [PF, 'fail', 0],
    [R15, 1, 0],
    [R15, 3, 0.5],
    [R15, 5, 1],
    [{ kind: 'range', min: 0, max: 10 }, 7, 0.7],
  ])('%j %j → %s', (scale, score, unit) => {
    expect(toUnit(scale, score)).toBeCloseTo(unit, 12);
  });
});

describe('firstJsonObject', () => {
  it.each<[string, string | undefined]>([
    ['{"a":1}', '{"a":1}'],
    ['Sure! {"a":{"b":2}} and {"c":3}', '{"a":{"b":2}}'],
    ['x {"s":"a } brace"} y', '{"s":"a } brace"}'],
    ['x {"s":"esc \\" } q"} y', '{"s":"esc \\" } q"}'],
    ['no object', undefined],
    ['{ unclosed', undefined],
  ])('%j → %j', (text, object) => {
    expect(firstJsonObject(text)).toBe(object);
  });
});

describe('parseVerdict', () => {
  it.each<[Scale, string, Partial<VerdictResult>]>([
    [PF, '{"reasoning":"ok","score":"pass"}', { ok: true, score: 'pass', value: 1, repaired: false }],
    [PF, ' {"reasoning":"no","score":"fail"}\n', { ok: true, score: 'fail', value: 0, repaired: false }],
    [R15, '{"reasoning":"fine","score":4}', { ok: true, score: 4, value: 0.75, repaired: false }],
    [
      R15,
      'Here is my verdict:\n```json\n{"reasoning":"fine","score":2}\n```',
      { ok: true, score: 2, value: 0.25, repaired: true },
    ],
    [PF, '{"score":"pass"}', { ok: true, score: 'pass', reasoning: '' }],
    [PF, 'I think it passes.', { ok: false, reason: 'the judge reply holds no JSON object' }],
    [PF, '', { ok: false, reason: 'the judge reply holds no JSON object' }],
    [PF, '[1,2]', { ok: false, reason: 'the judge reply is JSON but not an object' }],
    [PF, '"pass"', { ok: false, reason: 'the judge reply is JSON but not an object' }],
    [PF, '{"reasoning":"hm"}', { ok: false, reason: 'the judge verdict has no score' }],
    [PF, '{"score":1}', { ok: false, reason: 'the judge score 1 is off the scale "pass" | "fail"' }],
    [
      PF,
      '{"score":"PASS"}',
      { ok: false, reason: 'the judge score "PASS" is off the scale "pass" | "fail"' },
    ],
    [R15, '{"score":0}', { ok: false, reason: 'the judge score 0 is off the scale 1-5 (integers)' }],
    [R15, '{"score":6}', { ok: false, reason: 'the judge score 6 is off the scale 1-5 (integers)' }],
    [R15, '{"score":3.5}', { ok: false, reason: 'the judge score 3.5 is off the scale 1-5 (integers)' }],
    [R15, '{"score":"4"}', { ok: false, reason: 'the judge score "4" is off the scale 1-5 (integers)' }],
    // the one repair reads the first object only: a second, valid one is not searched for
    [
      R15,
      'a {"score":9} b {"score":3}',
      { ok: false, reason: 'the judge score 9 is off the scale 1-5 (integers)' },
    ],
  ])('%j %j → %j', (scale, raw, expected) => {
    const v = parseVerdict(scale, raw);
    expect(v).toMatchObject(expected);
    if (!v.ok) expect(v.raw).toBe(raw);
  });
});

describe('combine', () => {
  it.each<[Scale, (number | null)[], { value: number | null; tie: boolean; n: number; failed: number }]>([
    [PF, [1, 1, 0], { value: 1, tie: false, n: 3, failed: 0 }],
    [PF, [0, 1, 0], { value: 0, tie: false, n: 3, failed: 0 }],
    [PF, [1, 0], { value: null, tie: true, n: 2, failed: 0 }],
    [PF, [0, 1], { value: null, tie: true, n: 2, failed: 0 }],
    [PF, [1, null, 0], { value: null, tie: true, n: 2, failed: 1 }],
    [PF, [null, 1, 1], { value: 1, tie: false, n: 2, failed: 1 }],
    [PF, [null, null], { value: null, tie: false, n: 0, failed: 2 }],
    [PF, [], { value: null, tie: false, n: 0, failed: 0 }],
    [R15, [0.25, 1, 0.5], { value: 0.5, tie: false, n: 3, failed: 0 }],
    [R15, [0, 1], { value: 0.5, tie: false, n: 2, failed: 0 }],
    [R15, [0.75, null, 0.25], { value: 0.5, tie: false, n: 2, failed: 1 }],
  ])('%j %j → %j', (scale, values, expected) => {
    expect(combine(scale, values)).toEqual(expected);
  });
});

const ok = (score: 'pass' | 'fail' | number, scale: Scale = PF): VerdictResult => ({
  ok: true,
  score,
  value: toUnit(scale, score),
  reasoning: `r${score}`,
  repaired: false,
});
const bad: VerdictResult = { ok: false, reason: 'the judge reply holds no JSON object', raw: 'garbage' };

describe('sampleVerdict', () => {
  it.each<[Scale, VerdictResult[], { value: number | null; tie: boolean; unstable: boolean; n: number }]>([
    [PF, [ok('pass')], { value: 1, tie: false, unstable: false, n: 1 }],
    [PF, [ok('pass'), ok('pass'), ok('pass')], { value: 1, tie: false, unstable: false, n: 3 }],
    [PF, [ok('pass'), ok('fail'), ok('pass')], { value: 1, tie: false, unstable: true, n: 3 }],
    [PF, [ok('pass'), ok('fail')], { value: null, tie: true, unstable: true, n: 2 }],
    [PF, [ok('fail'), bad, ok('fail')], { value: 0, tie: false, unstable: false, n: 2 }],
    [PF, [bad], { value: null, tie: false, unstable: false, n: 0 }],
    [R15, [ok(2, R15), ok(5, R15), ok(3, R15)], { value: 0.5, tie: false, unstable: true, n: 3 }],
    [R15, [ok(4, R15), ok(4, R15), ok(4, R15)], { value: 0.75, tie: false, unstable: false, n: 3 }],
  ])('%j %j → %j', (scale, samples, expected) => {
    expect(sampleVerdict(scale, samples)).toMatchObject(expected);
  });

  it('keeps each failure with its raw text', () => {
    expect(sampleVerdict(PF, [bad, ok('pass')]).failures).toEqual([
      { reason: 'the judge reply holds no JSON object', raw: 'garbage' },
    ]);
  });
});

describe('panelVerdict', () => {
  it('a failed judge leaves the panel smaller', () => {
    const p = panelVerdict(PF, {
      a: sampleVerdict(PF, [ok('pass')]),
      b: sampleVerdict(PF, [bad]),
      c: sampleVerdict(PF, [ok('pass')]),
    });
    expect(p).toEqual({ value: 1, tie: false, n: 2, failed: 1, members: { a: 1, b: null, c: 1 } });
  });

  it.each([
    [
      ['pass', 'fail'],
      ['a', 'b'],
    ],
    [
      ['fail', 'pass'],
      ['a', 'b'],
    ],
    [
      ['pass', 'fail'],
      ['b', 'a'],
    ],
  ] as const)('a tie is a tie whatever the order: %j by %j', (scores, names) => {
    const p = panelVerdict(PF, {
      [names[0]]: sampleVerdict(PF, [ok(scores[0])]),
      [names[1]]: sampleVerdict(PF, [ok(scores[1])]),
      c: sampleVerdict(PF, [bad]),
    });
    expect(p).toMatchObject({ value: null, tie: true, n: 2, failed: 1 });
  });

  it('a scale panel takes the median', () => {
    const p = panelVerdict(R15, {
      a: sampleVerdict(R15, [ok(5, R15)]),
      b: sampleVerdict(R15, [ok(1, R15)]),
      c: sampleVerdict(R15, [ok(4, R15)]),
    });
    expect(p).toMatchObject({ value: 0.75, n: 3, failed: 0 });
  });
});
