import { SourceMapConsumer } from 'source-map';
import { describe, expect, it } from 'vitest';
import { workflowBundle } from '../../src/client/bundle.ts';
import { WORKFLOWS_PATH } from '../../src/client/worker.ts';

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

  // Stack traces of workflow code are mapped back to our TypeScript through the bundle's inline source map; the
  // sources' text webpack also embeds is read by nothing and only slowed each worker's start.
  it('keeps a source map that maps to our TypeScript, without the sources’ text', async () => {
    const { code } = await workflowBundle(WORKFLOWS_PATH);
    const at = code.lastIndexOf('//# sourceMappingURL=data:application/json;charset=utf-8;base64,');
    expect(at).toBeGreaterThan(0);
    const map = JSON.parse(Buffer.from(code.slice(code.indexOf('base64,', at) + 7), 'base64').toString()) as {
      sources: string[];
      sourcesContent?: unknown;
    };
    expect(map.sourcesContent).toBeUndefined();
    // A budget, not a measure: 1,000,708 characters with the failure converter bundled (its code was there already,
    // as the runtime's default); a schema library pulled in would add hundreds of thousands.
    expect(code.length).toBeLessThan(1_050_000);
    const lines = code.slice(0, at).split('\n');
    const line = lines.findIndex((l) => /\basync function compareRun\(/.test(l));
    expect(line).toBeGreaterThan(0);
    const consumer = await new SourceMapConsumer(map as never);
    const column = lines[line]!.indexOf('compareRun');
    expect(consumer.originalPositionFor({ line: line + 1, column }).source).toMatch(
      /workflows\/compare-run\.ts$/,
    );
    consumer.destroy();
  }, 120_000);
});
