import { globalHandlers } from '@temporalio/worker/lib/workflow/vm-shared.js';
import { describe, expect, it } from 'vitest';
import { dropStackTraceHook } from '../../src/client/stack-trace-hook.ts';

// The SDK's stack-trace hook runs on every promise of the thread its workflows run on, and looks for a workflow by
// reading `globalThis.__TEMPORAL_ACTIVATOR__` in the promise's realm: counting those reads here counts its runs.

describe("dropping the SDK's stack-trace hook", () => {
  it('stops the hook running on every promise of this thread', async () => {
    let reads = 0;
    Object.defineProperty(globalThis, '__TEMPORAL_ACTIVATOR__', {
      configurable: true,
      get: () => (reads++, undefined),
    });
    try {
      globalHandlers.install();
      await Promise.resolve(1).then((n) => n + 1);
      // Fails if the SDK's hook no longer runs (nothing to drop) or no longer reads the global this way.
      expect(reads).toBeGreaterThan(0);

      // Fails if the SDK renamed its switch: the hook would stay on, unseen.
      expect(dropStackTraceHook()).toBe(true);
      expect(globalHandlers.promiseHookInstalled).toBe(false);
      reads = 0;
      await Promise.resolve(1).then((n) => n + 1);
      expect(reads).toBe(0);
    } finally {
      delete (globalThis as Record<string, unknown>).__TEMPORAL_ACTIVATOR__;
    }
  });

  it('leaves handlers without the switch alone, and says so', () => {
    expect(dropStackTraceHook({})).toBe(false);
    expect(dropStackTraceHook({ stopPromiseHook: 'no', promiseHookInstalled: true })).toBe(false);
  });
});
