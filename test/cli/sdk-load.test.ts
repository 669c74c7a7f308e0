import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/suite-dir.ts';

// bin/sdk-load.mjs: the CLI's Temporal worker SDK takes rxjs from its one-file build. What the SDK gets must be rxjs
// all the same, and a process told not to (LLM_EVALS_SDK_PATCHES=0) loads rxjs as Node would.

const HOOK = join(REPO, 'bin', 'sdk-load.mjs');

/** Loads Temporal's worker SDK in a fresh process (with the hook unless told not to) and reports what rxjs it got. */
function loadWorkerSdk(env: NodeJS.ProcessEnv = {}) {
  const script = `import { createRequire } from 'node:module';
const { installSdkLoad } = await import(process.env.HOOK);
installSdkLoad();
const require = createRequire(process.env.REPO + '/package.json');
require('@temporalio/worker');
const rxFiles = Object.keys(require.cache).filter((f) => f.includes('/node_modules/rxjs/'));
// What the SDK itself gets when it requires rxjs, as one of its own files does.
const sdkRequire = createRequire(require.resolve('@temporalio/worker/lib/worker.js'));
const rx = sdkRequire('rxjs');
const { map, takeWhile } = sdkRequire('rxjs/operators');
const seen = [];
rx.of(1, 2, 3, 4).pipe(map((n) => n * 10), takeWhile((n) => n < 40)).subscribe((n) => seen.push(n));
const subject = new rx.Subject();
const last = rx.lastValueFrom(subject);
subject.next('a'); subject.next('b'); subject.complete();
console.log(JSON.stringify({ rxFiles, seen, last: await last }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, HOOK, REPO, ...env },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as { rxFiles: string[]; seen: number[]; last: string };
}

describe('bin/sdk-load.mjs', () => {
  it("gives Temporal's SDK rxjs from its one file, which works as rxjs", () => {
    const { rxFiles, seen, last } = loadWorkerSdk();
    expect(rxFiles.map((f) => f.split('/node_modules/rxjs/')[1])).toEqual(['dist/bundles/rxjs.umd.min.js']);
    expect(seen).toEqual([10, 20, 30]);
    expect(last).toBe('b');
  });

  it('leaves rxjs to Node with LLM_EVALS_SDK_PATCHES=0', () => {
    const { rxFiles, seen, last } = loadWorkerSdk({ LLM_EVALS_SDK_PATCHES: '0' });
    expect(rxFiles.length).toBeGreaterThan(100);
    expect(rxFiles.every((f) => f.includes('/rxjs/dist/cjs/'))).toBe(true);
    expect(seen).toEqual([10, 20, 30]);
    expect(last).toBe('b');
  });
});
