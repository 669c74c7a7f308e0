import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureServer, stopServer } from '../../temporal/server.ts';
import { freeServerPort, temporalBinary } from '../helpers/temporal.ts';

// With Worker Versioning every suite's queue is a Worker Deployment, and every project of a user shares the embedded
// server. Temporal allows 100 deployments per namespace by default, and refuses the next one without a word to its
// worker: the worker of the 101st suite ever started on the machine polled nothing, and its run waited for ever.
// The embedded server starts with room for more (temporal/server-settings.ts); this test starts one as a user's is.

const SUITES = 103;
let stateDir: string;
let address: string;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'llm-evals-deployments-'));
  ({ address } = await ensureServer({ stateDir, binary: temporalBinary(), port: await freeServerPort() }));
}, 60_000);
afterAll(async () => {
  await stopServer(stateDir);
  await rm(stateDir, { recursive: true, force: true });
});

/** The Worker Deployments the server lists in the default namespace. */
async function deploymentNames(client: Connection): Promise<string[]> {
  const names: string[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.listWorkerDeployments({
      namespace: 'default',
      pageSize: 1000,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    names.push(...(page.workerDeployments ?? []).map((d) => d.name ?? ''));
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return names;
}

it(`keeps a deployment for each of ${SUITES} suites' versioned workers`, async () => {
  // Workers need a workflow to poll for workflow tasks, and polling is what registers a deployment.
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: join(import.meta.dirname, '..', 'fixtures', 'nothing-workflow.ts'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  const connection = await NativeConnection.connect({ address });
  const client = await ClosableConnection.connect({ address });
  try {
    // A batch at a time: each worker polls, which registers its deployment, and stops.
    for (let from = 0; from < SUITES; from += 25) {
      const batch = Array.from({ length: Math.min(25, SUITES - from) }, (_, i) => `suite-${from + i}`);
      const workers = await Promise.all(
        batch.map((name) =>
          Worker.create({
            connection,
            taskQueue: name,
            workflowBundle,
            workerDeploymentOptions: {
              useWorkerVersioning: true,
              version: { deploymentName: name, buildId: 'b1' },
              defaultVersioningBehavior: 'PINNED',
            },
          }),
        ),
      );
      // Until the server lists each of the batch's deployments (it registers them as it hears their polls, later
      // under load), or 20 s: a deployment it refused is never listed.
      const listed = (async () => {
        const until = Date.now() + 20_000;
        while (Date.now() < until) {
          const names = new Set(await deploymentNames(client));
          if (batch.every((name) => names.has(name))) return;
          await new Promise((done) => setTimeout(done, 250));
        }
      })();
      await Promise.all(workers.map((w) => w.runUntil(listed)));
    }
    const names = await deploymentNames(client);
    expect(names.filter((n) => n.startsWith('suite-')).sort()).toEqual(
      Array.from({ length: SUITES }, (_, i) => `suite-${i}`).sort(),
    );
  } finally {
    await Promise.all([connection.close(), client.close()]);
  }
}, 180_000);
