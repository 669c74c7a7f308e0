import { describe, expect, it } from 'vitest';
import { PoolRegistry } from '../../activities/pool-registry.ts';

/** A pool attempt's `quiet` promise and the way to settle it. */
function quietPromise() {
  let settle = () => {};
  const quiet = new Promise<void>((resolve) => (settle = resolve));
  return { quiet, settle };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('PoolRegistry.enter: a pool’s next attempt in the same process', () => {
  it('hands the earlier attempt over and waits until it is quiet', async () => {
    const pools = new PoolRegistry();
    const first = quietPromise();
    const one = pools.enter('wf/pool-1', 1, first.quiet);
    expect(one.handedOver.aborted).toBe(false);
    expect(await settled(one.before)).toBe(true);

    const second = quietPromise();
    const two = pools.enter('wf/pool-1', 2, second.quiet);
    expect(one.handedOver.aborted).toBe(true);
    expect(two.handedOver.aborted).toBe(false);
    expect(await settled(two.before)).toBe(false);
    first.settle();
    expect(await settled(two.before)).toBe(true);
    expect(pools.busy).toBe(1);
  });

  it('leaves other pools and other experiments alone', async () => {
    const pools = new PoolRegistry();
    const a = pools.enter('wf/pool-1', 1, quietPromise().quiet);
    const b = pools.enter('wf/pool-2', 2, quietPromise().quiet);
    const c = pools.enter('other/pool-1', 2, quietPromise().quiet);
    expect([a, b, c].map((p) => p.handedOver.aborted)).toEqual([false, false, false]);
    expect(await settled(Promise.all([b.before, c.before]))).toBe(true);
  });

  it('forgets an attempt once it is quiet: the next one has nothing to wait for', async () => {
    const pools = new PoolRegistry();
    const first = quietPromise();
    const one = pools.enter('wf/pool-1', 1, first.quiet);
    first.settle();
    await first.quiet;
    await new Promise((resolve) => setImmediate(resolve));
    const two = pools.enter('wf/pool-1', 2, quietPromise().quiet);
    expect(one.handedOver.aborted).toBe(false);
    expect(await settled(two.before)).toBe(true);
  });

  it('an attempt older than the one it finds hands over at once', () => {
    const pools = new PoolRegistry();
    const two = pools.enter('wf/pool-1', 2, quietPromise().quiet);
    const one = pools.enter('wf/pool-1', 1, quietPromise().quiet);
    expect(one.handedOver.aborted).toBe(true);
    expect(two.handedOver.aborted).toBe(false);
  });
});
