// Temporal's worker SDK requires rxjs, whose CommonJS build is 226 files: a command that serves a run spent ~50 ms of
// its start resolving, reading and running them. rxjs ships the same library as one file (its UMD bundle, the
// operators included); the SDK's requires of `rxjs` and `rxjs/operators` get that one instead. Nothing else changes:
// the same version, the same exports. A package without the bundle keeps its own loading.
import { existsSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Makes Temporal's SDK load rxjs from its one-file build. One of the three patches of the SDK's internals, all turned
 * off by `LLM_EVALS_SDK_PATCHES=0` (src/client/sdk-patches.ts has the others).
 */
export function installSdkLoad() {
  if (process.env.LLM_EVALS_SDK_PATCHES === '0') return;
  const load = Module._load;
  /** rxjs's bundle as loaded for the SDK, null when there is none to load. */
  let bundle;
  Module._load = function (request, parent, isMain) {
    if (
      (request === 'rxjs' || request === 'rxjs/operators') &&
      parent?.filename?.includes('/node_modules/@temporalio/')
    ) {
      bundle ??= rxjsBundle(parent, load);
      if (bundle) return request === 'rxjs' ? bundle : bundle.operators;
    }
    return load.call(this, request, parent, isMain);
  };
}

/** rxjs's UMD bundle, found from where `parent` would load rxjs; null when it is not there or lacks the operators. */
function rxjsBundle(parent, load) {
  try {
    const manifest = Module.createRequire(parent.filename).resolve('rxjs/package.json');
    const file = join(dirname(manifest), 'dist', 'bundles', 'rxjs.umd.min.js');
    if (!existsSync(file)) return null;
    const loaded = load.call(Module, file, parent, false);
    return loaded && typeof loaded.Observable === 'function' && loaded.operators ? loaded : null;
  } catch {
    return null;
  }
}
