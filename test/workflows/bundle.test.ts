import { describe, expect, it } from 'vitest';
import { workflowBundle } from '../../src/temporal/bundle.ts';
import { WORKFLOWS_PATH } from '../../src/temporal/worker.ts';

/** The packages whose modules a workflow bundle holds, from webpack's module comments. */
function packagesIn(code: string): Set<string> {
  const names = new Set<string>();
  for (const [, path] of code.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)) {
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path!);
    if (inPackage) names.add(inPackage[1]!);
  }
  return names;
}

describe('the workflow bundle', () => {
  // Every workflow task of every worker runs in this bundle: what it imports is evaluated in each worker thread and
  // weighs on every new workflow. A schema library pulled in through a shared module would cost that for nothing.
  it('holds Temporal’s workflow runtime and our workflow code only', async () => {
    const { code } = await workflowBundle(WORKFLOWS_PATH);
    const packages = [...packagesIn(code)].sort();
    expect(packages).toContain('@temporalio/workflow');
    expect(packages.filter((name) => !/^(@temporalio\/|nexus-rpc$|long$|ms$)/.test(name))).toEqual([]);
  }, 120_000);
});
