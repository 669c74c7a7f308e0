import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSnapshot, readsBackAsIs, saveSnapshot } from '../../src/output/save.ts';
import { snapshotFixture } from './fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'llm-evals-save-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('saveSnapshot and readSnapshot', () => {
  it('round-trips a snapshot through its schema', () => {
    const snapshot = snapshotFixture({ score: 1 });
    const file = saveSnapshot(snapshot, join(dir, 'results'));
    expect(file).toBe(join(dir, 'results', '20261130-120000-test.json'));
    expect(readSnapshot(file)).toEqual(snapshot);
  });

  it('writes each case and result on a line of its own, in JSON that reads back whole', () => {
    const snapshot = snapshotFixture({ score: 1 });
    const text = readFileSync(saveSnapshot(snapshot, join(dir, 'lines')), 'utf8');
    const lines = text.split('\n');
    for (const list of [snapshot.cases, snapshot.results]) {
      for (const item of list)
        expect(lines).toContain(`    ${JSON.stringify(item)}${item === list.at(-1) ? '' : ','}`);
    }
    // Everything else is indented as JSON.stringify(snapshot, null, 2) indents it.
    expect(text).toContain(
      `  "contenders": ${JSON.stringify(snapshot.contenders, null, 2).replaceAll('\n', '\n  ')},\n`,
    );
    expect(JSON.parse(text)).toEqual(snapshot);
  });

  it('reads a large snapshot line by line, as it reads a small one whole', () => {
    const snapshot = snapshotFixture({ score: 1 });
    const file = saveSnapshot(snapshot, join(dir, 'by-lines'));
    // A limit of 0 bytes takes every file for a large one.
    expect(readSnapshot(file, 0)).toEqual(readSnapshot(file));
    expect(readSnapshot(file, 0)).toEqual(snapshot);
  });

  it('reads a large snapshot laid out otherwise (an earlier version indented every result) whole', () => {
    const snapshot = snapshotFixture({ score: 1 });
    const file = join(dir, 'indented.json');
    writeFileSync(file, JSON.stringify(snapshot, null, 2) + '\n');
    expect(readSnapshot(file, 0)).toEqual(snapshot);
  });

  it('writes text of every width across its megabyte writes: accents, emoji, and a reply larger than a write', () => {
    const base = snapshotFixture({ score: 1 });
    const first = base.results[0]!;
    // 3-byte and 4-byte characters fall on every side of each megabyte the writer fills; one reply alone is larger.
    const results = Array.from({ length: 3_000 }, (_, i) => ({
      ...first,
      caseKey: `${first.caseKey}-${i}`,
      reply: `réponse ${i} ✓ 😀 `.repeat(1 + (i % 40)),
    }));
    results.push({ ...first, caseKey: 'huge', reply: '😀€é'.repeat(300_000) });
    const snapshot = { ...base, results };
    const text = readFileSync(saveSnapshot(snapshot, join(dir, 'wide')), 'utf8');
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * (1 << 20));
    expect(JSON.parse(text)).toEqual(snapshot);
  });

  it('leaves the snapshot in memory as its file reads back: no undefined key, NaN as null', () => {
    const snapshot = snapshotFixture({ score: 1 });
    const first = snapshot.results[0]!;
    first.score = NaN;
    (first as { latency?: number | null }).latency = undefined;
    (snapshot as { rescoreOf?: unknown }).rescoreOf = undefined;
    const file = saveSnapshot(snapshot, join(dir, 'as-read'));
    expect(snapshot.results[0]!.score).toBeNull();
    expect('latency' in snapshot.results[0]!).toBe(false);
    expect('rescoreOf' in snapshot).toBe(false);
    expect(snapshot).toStrictEqual(JSON.parse(readFileSync(file, 'utf8')));
  });

  it.each<[string, unknown, RegExp]>([
    ['not JSON', '{', /not a readable snapshot/],
    ['another version', { ...snapshotFixture(), version: 2 }, /version: expected snapshot version 1, got 2/],
    ['no version', { runId: 'x' }, /version: expected snapshot version 1, got undefined/],
    [
      'a result missing its status',
      (() => {
        const s = snapshotFixture();
        delete (s.results[3] as Partial<(typeof s.results)[number]>).status;
        return s;
      })(),
      /results\[3\]\.status: not a snapshot/,
    ],
    [
      'a cost that is text',
      { ...snapshotFixture(), weights: { cost: 'low' } },
      /weights\.cost: not a snapshot/,
    ],
  ])('refuses %s, naming the file and key', (name, content, message) => {
    const file = join(dir, `${name.replaceAll(' ', '-')}.json`);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    expect(() => readSnapshot(file)).toThrow(message);
    expect(() => readSnapshot(file)).toThrow(file);
  });
});

describe('readsBackAsIs', () => {
  it.each<[string, unknown, boolean]>([
    ['a decoded result', JSON.parse('{"a":[1,"x",null,true,{"b":{}}],"c":-1.5}'), true],
    ['NaN', { score: NaN }, false],
    ['Infinity', [Infinity], false],
    ['-0', { n: -0 }, false],
    ['an undefined key', { latency: undefined }, false],
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    ['an array hole', [1, , 3], false],
    ['undefined in an array', [undefined], false],
    ['a date', { at: new Date(0) }, false],
    ['a toJSON', { toJSON: () => 1 }, false],
    ['a class instance', new (class Point {})(), false],
    ['a function', { f: () => 1 }, false],
    ['an object without a prototype', Object.assign(Object.create(null) as object, { a: 1 }), true],
  ])('%s: %s', (_, value, expected) => {
    expect(readsBackAsIs(value)).toBe(expected);
    // What it says is what a round trip shows.
    if (expected) expect(JSON.parse(JSON.stringify(value))).toStrictEqual({ ...(value as object) });
  });

  it('saving keeps a result that reads back as it is, and replaces one that does not', () => {
    const snapshot = snapshotFixture({ score: 1 });
    const [plain, odd] = snapshot.results;
    odd!.score = NaN;
    saveSnapshot(snapshot, join(dir, 'kept'));
    expect(snapshot.results[0]).toBe(plain);
    expect(snapshot.results[1]).not.toBe(odd);
    expect(snapshot.results[1]!.score).toBeNull();
  });
});
