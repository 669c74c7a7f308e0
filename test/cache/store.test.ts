import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replyCacheDir, ReplyStore, type ReplyEntry } from '../../src/cache/store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const store = () => {
  const dir = mkdtempSync(join(tmpdir(), 'llm-evals-replies-'));
  dirs.push(dir);
  return new ReplyStore(join(dir, 'replies'));
};

const key = (n: number) => n.toString(16).padStart(64, '0').replace(/^0/, 'a');
const entry = (k: string, text = 'reply', fill = 0): ReplyEntry => ({
  version: 1,
  key: k,
  storedAt: '2026-12-01T00:00:00.000Z',
  provider: 'local-llm',
  model: 'local-llm/echo',
  response: { text: text + 'x'.repeat(fill), usage: { inputTokens: 20, outputTokens: 10, costUsd: 0.25 } },
  latency: 0.2,
});

describe('replyCacheDir', () => {
  it.each<[string, NodeJS.ProcessEnv, string]>([
    [
      'LLM_EVALS_CACHE_DIR wins',
      { LLM_EVALS_CACHE_DIR: '/shared/replies', XDG_CACHE_HOME: '/x' },
      '/shared/replies',
    ],
    ['else $XDG_CACHE_HOME/llm-evals/replies', { XDG_CACHE_HOME: '/x', HOME: '/h' }, '/x/llm-evals/replies'],
    ['else ~/.cache/llm-evals/replies', { HOME: '/h' }, '/h/.cache/llm-evals/replies'],
  ])('%s', (_, env, want) => {
    expect(replyCacheDir(env)).toBe(want);
  });
});

describe('ReplyStore', () => {
  it('gives back what it kept, and nothing for a key it never kept', async () => {
    const s = store();
    expect(await s.isEmpty()).toBe(true);
    await s.put(entry(key(1)));
    expect(await s.get(key(1))).toEqual(entry(key(1)));
    expect(await s.get(key(2))).toBeUndefined();
    expect(await s.isEmpty()).toBe(false);
  });

  it.each([
    ['a cut file', '{"version":1,"key":'],
    ['not JSON at all', '\u0000\u0000garbage'],
    ['JSON of another shape', '{"version":1}'],
    ['an entry of another key', JSON.stringify(entry(key(9)))],
  ])('reads %s as a miss and counts it for stats', async (_, text) => {
    const s = store();
    await s.put(entry(key(1)));
    writeFileSync(s.fileOf(key(1)), text);
    expect(await s.get(key(1))).toBeUndefined();
    expect((await s.stats()).corrupt).toBe(1);
    // Written again, the entry is whole once more.
    await s.put(entry(key(1)));
    expect(await s.get(key(1))).toEqual(entry(key(1)));
  });

  it("keeps a reply's tool calls, so a cached agent step calls the same tools", async () => {
    const s = store();
    const toolCalls = [{ id: 'c1', name: 'lookup', arguments: { city: 'Paris' } }];
    const kept = { ...entry(key(3)), response: { ...entry(key(3)).response, toolCalls } };
    await s.put(kept);
    expect((await s.get(key(3)))?.response.toolCalls).toEqual(toolCalls);
  });

  it('never shows a reader a torn entry while writers replace it', async () => {
    const s = store();
    const texts = ['a', 'b', 'c', 'd'];
    await s.put(entry(key(1), 'a', 200_000));
    const writes = Array.from({ length: 40 }, (_, i) => s.put(entry(key(1), texts[i % 4], 200_000)));
    const reads = Array.from({ length: 200 }, () => s.get(key(1)));
    const [, seen] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    for (const got of seen) expect(texts).toContain(got?.response.text[0]);
    expect((await s.stats()).corrupt).toBe(0);
    // No temporary file is left behind.
    expect(readdirSync(join(s.dir, key(1).slice(0, 2)))).toEqual([`${key(1)}.json`]);
  });

  it('counts entries and bytes, and keeps the last runs for stats', async () => {
    const s = store();
    for (const n of [1, 2, 3]) await s.put(entry(key(n)));
    for (const n of [1, 2, 3, 4, 5, 6])
      await s.recordRun({ runId: `r${n}`, replies: 4, cached: n % 5, savedUsd: 0.5 });
    const stats = await s.stats();
    expect(stats).toMatchObject({ entries: 3, corrupt: 0 });
    expect(stats.bytes).toBe(readFileSync(s.fileOf(key(1))).length * 3);
    expect(stats.runs.map((r) => r.runId)).toEqual(['r2', 'r3', 'r4', 'r5', 'r6']);
  });

  it('prunes the entries older than the date, and temporary files a dead writer left', async () => {
    const s = store();
    for (const n of [1, 2]) await s.put(entry(key(n)));
    const old = new Date('2026-01-01T00:00:00Z');
    utimesSync(s.fileOf(key(1)), old, old);
    const orphan = join(s.dir, key(1).slice(0, 2), `.${key(1)}.123.abcd.tmp`);
    writeFileSync(orphan, '{"version"');
    utimesSync(orphan, old, old);
    expect(await s.prune(new Date('2026-06-01T00:00:00Z'))).toBe(1);
    expect(await s.get(key(1))).toBeUndefined();
    expect(await s.get(key(2))).toEqual(entry(key(2)));
    expect(readdirSync(join(s.dir, key(1).slice(0, 2)))).not.toContain(`.${key(1)}.123.abcd.tmp`);
  });

  it('clears every entry and the log, and writes again after', async () => {
    const s = store();
    for (const n of [1, 2, 3]) await s.put(entry(key(n)));
    await s.recordRun({ runId: 'r', replies: 3, cached: 0, savedUsd: 0 });
    expect(await s.clear()).toBe(3);
    expect(await s.stats()).toMatchObject({ entries: 0, runs: [], corrupt: 0 });
    await s.put(entry(key(1)));
    expect(await s.get(key(1))).toEqual(entry(key(1)));
  });
});
