import { describe, expect, it } from 'vitest';
import { PoolRegistry } from '../../activities/pool-registry.ts';

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('PoolRegistry.enter: a pool’s next attempt in the same process', () => {
  it('hands the earlier attempt over and waits until it is quiet', async () => {
    const pools = new PoolRegistry();
    const one = pools.enter('wf/pool-1', 1);
    expect(one.handedOver.aborted).toBe(false);
    expect(await settled(one.before)).toBe(true);

    const two = pools.enter('wf/pool-1', 2);
    expect(one.handedOver.aborted).toBe(true);
    expect(two.handedOver.aborted).toBe(false);
    expect(await settled(two.before)).toBe(false);
    one.quieted();
    expect(await settled(two.before)).toBe(true);
    expect(pools.busy).toBe(1);
  });

  it('leaves other pools and other experiments alone', async () => {
    const pools = new PoolRegistry();
    const a = pools.enter('wf/pool-1', 1);
    const b = pools.enter('wf/pool-2', 2);
    const c = pools.enter('other/pool-1', 2);
    expect([a, b, c].map((p) => p.handedOver.aborted)).toEqual([false, false, false]);
    expect(await settled(Promise.all([b.before, c.before]))).toBe(true);
  });

  it('forgets an attempt once it is quiet: the next one has nothing to wait for', async () => {
    const pools = new PoolRegistry();
    const one = pools.enter('wf/pool-1', 1);
    one.quieted();
    await new Promise((resolve) => setImmediate(resolve));
    const two = pools.enter('wf/pool-1', 2);
    expect(one.handedOver.aborted).toBe(false);
    expect(await settled(two.before)).toBe(true);
  });

  it('an attempt older than the one it finds hands over at once', () => {
    const pools = new PoolRegistry();
    const two = pools.enter('wf/pool-1', 2);
    const one = pools.enter('wf/pool-1', 1);
    expect(one.handedOver.aborted).toBe(true);
    expect(two.handedOver.aborted).toBe(false);
  });
});
