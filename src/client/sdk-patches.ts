/**
 * The patches of Temporal's SDK internals that shorten a command's start: rxjs from its one file (bin/sdk-load.mjs),
 * protobufjs's codecs made on first use (lazy-codecs.ts), and no promise hook in a command's own thread (below). Each
 * has a test that fails when an SDK upgrade turns it into a no-op; `LLM_EVALS_SDK_PATCHES=0` turns all three off.
 */

/** Whether the SDK patches are on (the default). */
export function sdkPatches(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.LLM_EVALS_SDK_PATCHES !== '0';
}

/** The SDK's holder of the promise hook that records workflow stacks, if it is where this code expects it. */
export async function promiseStackHandlers(): Promise<{ stopPromiseHook: () => void } | undefined> {
  try {
    const { globalHandlers } = await import('@temporalio/worker/lib/workflow/vm-shared.js');
    const handlers = globalHandlers as unknown as Record<string, unknown> | undefined;
    return typeof handlers?.stopPromiseHook === 'function'
      ? (handlers as unknown as { stopPromiseHook: () => void })
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops the hook the SDK puts on every promise of the process that runs workflows, to record the stacks Temporal's
 * `workflow stack` shows. In a worker thread it sees only workflow code; run in a command's own thread it would run on
 * every promise of the command (gRPC's, the calls', the SDK's). The command's workflows then answer `workflow stack`
 * with no frames; a standalone `llm-evals worker` keeps them. Where the SDK no longer has it, the hook stays.
 */
export async function stopPromiseStacks(): Promise<void> {
  const handlers = await promiseStackHandlers();
  handlers?.stopPromiseHook();
}
