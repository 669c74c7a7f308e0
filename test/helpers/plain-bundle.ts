import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { cachedBundle, withoutSourcesContent, workflowSourcesDigest } from '../../src/client/bundle.ts';
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
  return (built ??= cachedBundle(
    join(REPO, 'tmp', 'plain-workflows', `${workflowSourcesDigest(WORKFLOWS_PATH)}.js`),
    async () => {
      const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quiet });
      return withoutSourcesContent(code);
    },
  ));
}
