import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { replaceFile } from '../../src/cache/replace-file.ts';
import { withoutSourcesContent, workflowSourcesDigest } from '../../src/client/bundle.ts';
import { WORKFLOWS_PATH } from '../../src/client/worker.ts';
import { REPO } from './suite-dir.ts';

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
let built: Promise<{ code: string }> | undefined;

/**
 * The engine's workflows bundled as the SDK bundles a `workflowsPath` (no failure converter, no interceptor), for the
 * tests whose workers and clients use the SDK's default data converter. Webpack takes 2-3 s of CPU a bundle: built
 * once per change of the workflow code, kept under tmp/, and shared by every such test instead of one per worker.
 */
export function plainWorkflowBundle(): Promise<{ code: string }> {
  return (built ??= (async () => {
    const file = join(REPO, 'tmp', 'plain-workflows', `${workflowSourcesDigest(WORKFLOWS_PATH)}.js`);
    if (existsSync(file)) return { code: readFileSync(file, 'utf8') };
    const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quiet });
    const small = withoutSourcesContent(code);
    // Another test process may build it at the same moment: each writes its own file and renames it over.
    replaceFile(file, `${file}.${randomBytes(6).toString('hex')}.tmp`, small);
    return { code: small };
  })());
}
