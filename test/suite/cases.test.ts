import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  eachCase,
  loadCases,
  placeCase,
  selectCases,
  type LoadedCase,
  type CaseProblem,
} from '../../src/suite/cases.ts';
import { caseFiles, TempDirs, writeTree } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

describe('placeCase', () => {
  it.each([
    ['datasets/animals/cases/clear/input.txt', { dataset: 'animals', variant: 'clear', id: 'clear' }],
    ['datasets/animals/cases/clear/001/input.txt', { dataset: 'animals', variant: 'clear', id: 'clear/001' }],
    [
      'datasets/animals/cases/tricky/042/input.txt',
      { dataset: 'animals', variant: 'tricky', id: 'tricky/042' },
    ],
    ['datasets/09-tax/cases/vague/input.txt', { dataset: '09-tax', variant: 'vague', id: 'vague' }],
    ['datasets/2024/cases/v1/input.txt', { dataset: '2024', variant: 'v1', id: 'v1' }],
    ['suites/x/datasets/colors/more/deep/input.txt', { dataset: 'colors', variant: 'deep', id: 'deep' }],
    ['datasets/colors/cases/a1b/input.txt', { dataset: 'colors', variant: 'a1b', id: 'a1b' }],
  ])('%s → %j', (path, place) => {
    expect(placeCase(path)).toEqual(place);
  });
});

/** A suite root holding the given cases (folder under the root → files). */
function suite(cases: Record<string, Parameters<typeof caseFiles>[1]>): string {
  const files = Object.entries(cases).reduce<Record<string, string>>(
    (all, [folder, kase]) => ({ ...all, ...caseFiles(folder, kase) }),
    {},
  );
  return writeTree(dirs.os(), files);
}

const good = { input: 'A cat.\n', expected: '{"animal":"cat"}' };

describe('loadCases', () => {
  it('reads input, expected and metadata, and places each case', () => {
    const root = suite({
      'datasets/animals/cases/clear/001': {
        input: 'The cat sits on the mat.\n',
        expected: '{ "animal": "cat", "legs": 4 }',
        metadata: '{ "difficulty": "easy", "source": "made up" }',
      },
    });
    const { cases, problems } = loadCases(root);
    expect(problems).toEqual([]);
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({
      key: 'animals/clear/001',
      id: 'clear/001',
      dataset: 'animals',
      variant: 'clear',
      input: 'The cat sits on the mat.\n',
      expected: { animal: 'cat', legs: 4 },
      metadata: { difficulty: 'easy', source: 'made up' },
      path: join(root, 'datasets/animals/cases/clear/001'),
      words: 6,
    });
    expect(cases[0]?.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives a case without metadata.json empty metadata', () => {
    const { cases, problems } = loadCases(suite({ 'datasets/a/cases/v': good }));
    expect(problems).toEqual([]);
    expect(cases[0]?.metadata).toEqual({});
  });

  it('sorts cases by key and reads every dataset', () => {
    const root = suite({
      'datasets/b/cases/v/002': good,
      'datasets/b/cases/v/001': good,
      'datasets/a/cases/z': good,
    });
    expect(loadCases(root).cases.map((c) => c.key)).toEqual(['a/z', 'b/v/001', 'b/v/002']);
  });

  it('changes the hash when any of the case files changes', () => {
    const base = { input: 'in', expected: '{"a":1}', metadata: '{"m":1}' };
    const hashes = [
      base,
      { ...base, input: 'in2' },
      { ...base, expected: '{"a":2}' },
      { ...base, metadata: '{"m":2}' },
    ].map((kase) => loadCases(suite({ 'datasets/d/cases/v': kase })).cases[0]?.hash);
    expect(new Set(hashes).size).toBe(4);
  });

  it('takes another glob', () => {
    const root = writeTree(dirs.os(), {
      ...caseFiles('extra/datasets/x/cases/v', good),
      ...caseFiles('datasets/y/cases/v', good),
    });
    expect(loadCases(root, 'extra/**/input.txt').cases.map((c) => c.key)).toEqual(['x/v']);
  });

  it.each([
    ['an empty input', { input: '  \n', expected: '{}' }, 'input.txt', /empty input/],
    ['a missing expected.json', { input: 'x' }, 'expected.json', /missing/],
    ['an unparsable expected.json', { input: 'x', expected: '{"a": ' }, 'expected.json', /not valid JSON/],
    ['an array in metadata.json', { ...good, metadata: '[1, 2]' }, 'metadata.json', /JSON object/],
    ['a string in metadata.json', { ...good, metadata: '"hard"' }, 'metadata.json', /JSON object/],
    ['null in metadata.json', { ...good, metadata: 'null' }, 'metadata.json', /JSON object/],
    ['an unparsable metadata.json', { ...good, metadata: '{oops' }, 'metadata.json', /not valid JSON/],
  ])('reports %s, names the file and leaves the case out', (_, kase, file, problem) => {
    const root = suite({ 'datasets/d/cases/bad': kase, 'datasets/d/cases/ok': good });
    const { cases, problems } = loadCases(root);
    expect(problems.map((p) => p.file)).toEqual([join(root, 'datasets/d/cases/bad', file)]);
    expect(problems[0]?.problem).toMatch(problem);
    expect(cases.map((c) => c.id)).toEqual(['ok']);
  });

  it.each([
    ['expected.json', { expected: '{}' }],
    ['metadata.json', { metadata: '{}' }],
    ['expected.json', { expected: '{}', metadata: '{}' }],
  ])('reports a case folder with %s but no input.txt, naming the folder (issue 44)', (has, kase) => {
    const root = suite({ 'datasets/d/cases/lost': kase, 'datasets/d/cases/ok': good });
    const { cases, problems } = loadCases(root);
    expect(problems).toEqual([
      { file: join(root, 'datasets/d/cases/lost'), problem: `a case folder with ${has} but no input.txt` },
    ]);
    expect(cases.map((c) => c.id)).toEqual(['ok']);
  });

  it('collects every problem rather than stopping at the first', () => {
    const root = suite({
      'datasets/d/cases/a': { input: '', expected: '{}' },
      'datasets/d/cases/b': { input: 'x', expected: 'nope' },
    });
    expect(loadCases(root).problems).toHaveLength(2);
  });
});

describe('eachCase', () => {
  it('yields the cases loadCases sorts, one at a time, and adds the problems to the list it is given', () => {
    const root = suite({
      'datasets/b/cases/v/001': good,
      'datasets/a/cases/z': good,
      'datasets/a/cases/bad': { input: '', expected: '{}' },
    });
    const problems: CaseProblem[] = [];
    const reader = eachCase(root, undefined, problems);
    // Nothing is read before the first case is asked for.
    expect(problems).toEqual([]);
    const first = reader.next();
    expect(first.done).toBe(false);
    const rest = [...reader];
    const read = [first.value as LoadedCase, ...rest];
    expect(read.map((c) => c.key).sort()).toEqual(loadCases(root).cases.map((c) => c.key));
    expect(read).toEqual(expect.arrayContaining(loadCases(root).cases));
    expect(problems.map((p) => p.file)).toEqual([join(root, 'datasets/a/cases/bad/input.txt')]);
  });
});

const kase = (key: string): LoadedCase => {
  const [dataset = '', variant = '', number] = key.split('/');
  const id = number ? `${variant}/${number}` : variant;
  return { key, id, dataset, variant, input: '', expected: {}, path: '', metadata: {}, hash: '', words: 0 };
};

describe('selectCases', () => {
  const all = [
    'animals/clear/001',
    'animals/clear/002',
    'animals/tricky/001',
    'colors/clear/001',
    'colors/vague',
  ].map(kase);

  it.each([
    ['nothing: every case', [], [], all.map((c) => c.key)],
    ['a dataset', ['colors'], [], ['colors/clear/001', 'colors/vague']],
    ['two datasets', ['colors', 'animals'], [], all.map((c) => c.key)],
    ['an unknown dataset', ['plants'], [], []],
    ['a variant', [], ['clear'], ['animals/clear/001', 'animals/clear/002', 'colors/clear/001']],
    ['a variant without numbered cases', [], ['vague'], ['colors/vague']],
    ['one case, variant/NNN', [], ['clear/002'], ['animals/clear/002']],
    ['variant/NNN in every dataset', [], ['clear/001'], ['animals/clear/001', 'colors/clear/001']],
    ['a dataset and a case', ['colors'], ['clear/001'], ['colors/clear/001']],
    ['a variant and a case', [], ['tricky', 'clear/002'], ['animals/clear/002', 'animals/tricky/001']],
    ['a full key', [], ['animals/clear/001'], ['animals/clear/001']],
    ['a number alone selects nothing', [], ['001'], []],
  ])('by %s', (_, datasets, selectors, keys) => {
    expect(selectCases(all, datasets, selectors).map((c) => c.key)).toEqual(keys);
  });
});
