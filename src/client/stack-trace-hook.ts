import { createRequire } from 'node:module';

/** The part of the SDK's global handlers this reaches: the hook's off switch, and the flag new workflows read. */
interface Handlers {
  stopPromiseHook?: unknown;
  promiseHookInstalled?: unknown;
}

/** The SDK's global handlers, or undefined where its files moved or its package no longer lets them be reached. */
function sdkHandlers(): Handlers | undefined {
  try {
    const shared = createRequire(import.meta.url)('@temporalio/worker/lib/workflow/vm-shared.js') as {
      globalHandlers?: Handlers;
    };
    return shared.globalHandlers;
  } catch {
    return undefined;
  }
}

/**
 * Turns off the promise hook Temporal's SDK installs for workflows' stack traces, where the workflows run on this
 * thread (a command's own worker, `workflowsInProcess`). The hook is the whole isolate's: it ran on every promise of
 * the activities too, compiling a function for each one's creation and settling to ask whether it belonged to a
 * workflow; for a judged compare of 1,000 cases at 200 ms and 16 lanes that was 0.7 s of the lanes' one thread, and
 * the wall went from 14.82 s to 14.47 s without it (medians of four, paired, bench/judge.ts, on a tree that also
 * wrote the reply cache behind its calls). What goes: Temporal's "stack trace" query on those workflows (the Web UI's
 * stack tab), which nothing here reads; a standalone worker runs its workflows on their own thread and keeps it. Where
 * the SDK no longer has the switch (or its file), the hook stays on and this returns false
 * (`test/client/stack-trace-hook.test.ts` fails then, to say so). Called again for a second worker, it stops nothing
 * more: the SDK installs its hook once per process.
 */
export function dropStackTraceHook(handlers = sdkHandlers()): boolean {
  if (
    !handlers ||
    typeof handlers.stopPromiseHook !== 'function' ||
    typeof handlers.promiseHookInstalled !== 'boolean'
  )
    return false;
  (handlers.stopPromiseHook as () => void).call(handlers);
  // Workflows created after this do not expect stacks.
  handlers.promiseHookInstalled = false;
  return true;
}
