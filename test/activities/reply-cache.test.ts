import { describe, expect, it } from 'vitest';
import { replyCache } from '../../activities/cached-model.ts';
import type { ReplyEntry } from '../../src/cache/store.ts';

// A worker's reply cache writes behind its calls: an entry is found at once, before its file exists, and `written`
// tells the pool when every entry put so far is on disk, which it waits for before it reports their cases.

const entry = (key: string, text = 'reply'): ReplyEntry => ({
  version: 1,
  key,
  storedAt: '2026-12-05T00:00:00.000Z',
  provider: 'lan',
  model: 'm',
  response: { text, usage: { inputTokens: 1, outputTokens: 1, costUsd: null } },
  latency: 0.2,
});

/** A store whose writes land only when the test says: each put waits on its own latch. */
function heldStore() {
  const files = new Map<string, ReplyEntry>();
  const latches: { key: string; land: () => void; fail: (error: Error) => void }[] = [];
  return {
    files,
    latches,
    get: (key: string) => Promise.resolve(files.get(key)),
    put: (kept: ReplyEntry) =>
      new Promise<void>((resolve, reject) => {
        latches.push({
          key: kept.key,
          land: () => (files.set(kept.key, kept), resolve()),
          fail: reject,
        });
      }),
  };
}

const runs = { inputOf: () => Promise.resolve({ header: { settings: {} } }) };
const settles = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

describe('the reply cache writes behind', () => {
  it('finds an entry before its file exists, and says written only once every file is', async () => {
    const store = heldStore();
    const cache = replyCache(store, runs);
    const first = cache.put(entry('a'));
    void cache.put(entry('b'));
    expect(store.files.size).toBe(0);
    expect(await cache.get('a')).toEqual(entry('a'));
    expect(await cache.get('b')).toEqual(entry('b'));
    expect(await cache.get('c')).toBeUndefined();

    const written = cache.written!();
    expect(await settles(written)).toBe(false);
    store.latches[0]!.land();
    await first;
    expect(await settles(written)).toBe(false);
    store.latches[1]!.land();
    expect(await settles(written)).toBe(true);
    // Landed, the entries are the store's.
    expect([...store.files.keys()]).toEqual(['a', 'b']);
    expect(await cache.get('a')).toEqual(entry('a'));
  });

  it('keeps the newer of two entries of one key while both are written', async () => {
    const store = heldStore();
    const cache = replyCache(store, runs);
    void cache.put(entry('a', 'old'));
    void cache.put(entry('a', 'new'));
    store.latches[0]!.land();
    const written = cache.written!();
    // The older write landed; the newer one is still being written, and is what a reader gets.
    expect(await settles(written)).toBe(false);
    expect((await cache.get('a'))?.response.text).toBe('new');
    store.latches[1]!.land();
    await written;
    expect(store.files.get('a')?.response.text).toBe('new');
  });

  it('says written when a write failed (a full disk), the failure the caller’s', async () => {
    const store = heldStore();
    const cache = replyCache(store, runs);
    const put = cache.put(entry('a'));
    store.latches[0]!.fail(new Error('ENOSPC'));
    await expect(put).rejects.toThrow('ENOSPC');
    expect(await settles(cache.written!())).toBe(true);
    // Never kept: a later reader asks the store, which has nothing.
    expect(await cache.get('a')).toBeUndefined();
  });
});
