import { describe, expect, it } from 'vitest';
import { promiseStackHandlers, sdkPatches } from '../../src/client/sdk-patches.ts';

// The SDK patches reach into Temporal's internals: these tests fail when an SDK upgrade moves what they patch, rather
// than letting the patch become a silent no-op (bin/sdk-load.mjs and lazy-codecs.ts have tests of their own).
describe('the patches of the SDK', () => {
  it("find the SDK's promise hook where they stop it", async () => {
    const handlers = await promiseStackHandlers();
    expect(handlers).toBeDefined();
    expect(typeof handlers!.stopPromiseHook).toBe('function');
  });

  it.each<[string | undefined, boolean]>([
    [undefined, true],
    ['1', true],
    ['0', false],
  ])('LLM_EVALS_SDK_PATCHES=%s: on is %s', (value, on) => {
    expect(sdkPatches(value === undefined ? {} : { LLM_EVALS_SDK_PATCHES: value })).toBe(on);
  });
});
