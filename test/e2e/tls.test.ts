import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentWorkflowId, gateWorkflowId, runWorkflowId } from '../../src/core/run-input.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { runCli, runCliLong, type CliResult } from '../helpers/cli.ts';
import { filesUnder, historyText } from '../helpers/leaks.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress, withClient } from '../helpers/temporal.ts';
import { startTlsProxy, type SeenConnection, type TlsProxy } from '../helpers/tls-proxy.ts';

// A remote cluster behind TLS (issue #13): the shared dev server behind a real mutual-TLS terminator, certificates
// made here with openssl, reached only through TEMPORAL_ADDRESS, TEMPORAL_TLS_CERT/KEY/CA and TEMPORAL_API_KEY, as
// Temporal's own CLI reads them. Both the command's client and its worker's native connection must go through it.

const dirs = new TempDirs();
const SECRET = `some-secret-${randomUUID()}`;
const SERVICE = '/temporal.api.workflowservice.v1.WorkflowService/';
let certs: TestCerts;
let proxy: TlsProxy;

beforeAll(async () => {
  certs = makeTestCerts(dirs.os('llm-evals-tls-'));
  proxy = await startTlsProxy({
    upstream: temporalAddress(),
    cert: certs.serverCert,
    key: certs.serverKey,
    ca: certs.ca,
  });
});

afterAll(async () => {
  await proxy?.close();
  dirs.removeAll();
});

/** The env of a command that reaches Temporal through the proxy with the test's client certificate and API key. */
function tlsEnv(): NodeJS.ProcessEnv {
  return {
    TEMPORAL_ADDRESS: proxy.address,
    TEMPORAL_TLS_CERT: certs.clientCert,
    TEMPORAL_TLS_KEY: certs.clientKey,
    TEMPORAL_TLS_CA: certs.ca,
    TEMPORAL_API_KEY: SECRET,
    LLM_EVALS_TASK_QUEUE: `tls-${randomUUID()}`,
  };
}

/** Runs `compare` with `env` and checks it failed fast with one clear line naming the address and TLS, no stack. */
async function expectTlsRefused(env: NodeJS.ProcessEnv): Promise<string> {
  const started = Date.now();
  const result = await runCli(['compare', '--no-open'], { cwd: dirs.toySuite(), env });
  expect(result.code, result.stderr).toBe(2);
  const lines = result.stderr.split('\n').filter((line) => line.startsWith('llm-evals: '));
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`llm-evals: Cannot reach the Temporal server at ${proxy.address} over TLS: `);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toContain('run again with -v');
  // gRPC alone waits out its 10 s connect deadline and says only that it failed to connect.
  expect(Date.now() - started).toBeLessThan(8_000);
  return lines[0]!;
}

describe('compare against a cluster behind mutual TLS with an API key', () => {
  let dir: string;
  let result: CliResult;
  let snapshot: Snapshot;
  let snapshotText: string;

  beforeAll(async () => {
    dir = dirs.toySuite();
    result = await runCliLong(['compare', '--no-open'], { cwd: dir, env: tlsEnv(), timeoutMs: 120_000 });
    const saved = filesUnder(join(dir, 'evals/results')).filter((f) => f.endsWith('.json'));
    if (saved.length === 1) {
      snapshotText = readFileSync(saved[0]!, 'utf8');
      snapshot = JSON.parse(snapshotText) as Snapshot;
    }
  }, 150_000);

  it('completes with every case scored', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(snapshot).toMatchObject({ status: 'completed', suite: { name: 'toy' } });
    // The toy suite: 3 contenders × 4 datasets, 14 cases each.
    expect(snapshot.experiments).toHaveLength(12);
    expect(snapshot.results).toHaveLength(42);
    expect(snapshot.results.every((r) => r.status === 'scored' && r.score === 1)).toBe(true);
  });

  it('the client and the worker both came over TLS with the client certificate, each call with the API key', () => {
    expect(proxy.refused).toEqual([]);
    // Every connection so far is this compare's: its TLS check, its client's, its worker's.
    const ours = proxy.connections;
    expect(ours.map((c) => c.clientCert)).toEqual(ours.map(() => 'llm-evals test client'));
    const carried = (method: string) =>
      ours.filter((c) => c.calls.some((call) => call.path === SERVICE + method));
    // The command's client (grpc-js) starts the run; the worker's native connection (Rust) polls for its tasks.
    const client = carried('StartWorkflowExecution');
    const worker = carried('PollWorkflowTaskQueue');
    expect(client.length).toBeGreaterThan(0);
    expect(worker.length).toBeGreaterThan(0);
    const agents = (connections: SeenConnection[]) =>
      new Set(connections.flatMap((c) => c.calls.map((call) => call.userAgent?.split('/')[0])));
    expect(agents(client)).toEqual(new Set(['grpc-node-js']));
    expect(agents(worker)).toEqual(new Set(['tonic']));
    expect(carried('PollActivityTaskQueue').length).toBeGreaterThan(0);
    const authorizations = new Set(ours.flatMap((c) => c.calls.map((call) => call.authorization)));
    expect([...authorizations]).toEqual([`Bearer ${SECRET}`]);
  });

  it('the secret is nowhere in the snapshot, the workflow histories, the logs or the output', async () => {
    expect(snapshotText).toContain(snapshot.runId);
    expect(snapshotText).not.toContain(SECRET);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    const logs = filesUnder(join(dir, 'log'));
    expect(logs.filter((f) => readFileSync(f).includes(SECRET))).toEqual([]);
    // Read straight from the dev server behind the proxy: the histories as the cluster stores them.
    await withClient(temporalAddress(), async (client) => {
      const ids = [
        runWorkflowId(snapshot.runId),
        gateWorkflowId(snapshot.runId),
        ...snapshot.experiments.map((e) => experimentWorkflowId(snapshot.runId, e.id)),
      ];
      const histories = await Promise.all(
        ids.map(async (id) => ({
          id,
          text: historyText(await client.workflow.getHandle(id).fetchHistory()),
        })),
      );
      // The decoding works: the run's id and each case's key are in its histories.
      expect(histories.find((h) => h.id === runWorkflowId(snapshot.runId))!.text).toContain(snapshot.runId);
      for (const kase of snapshot.cases)
        expect(
          histories.some((h) => h.text.includes(kase.key)),
          kase.key,
        ).toBe(true);
      expect(histories.filter((h) => h.text.includes(SECRET)).map((h) => h.id)).toEqual([]);
    });
  });
});

describe('a wrong TLS setting fails at once with one clear message', () => {
  it('without TEMPORAL_TLS_CA the server’s certificate is not trusted', async () => {
    const { TEMPORAL_TLS_CA: _, ...env } = tlsEnv();
    const line = await expectTlsRefused(env);
    expect(line).toMatch(
      /its certificate is not trusted \(self[- ]signed certificate in certificate chain\)/,
    );
    expect(line).toContain('Set TEMPORAL_TLS_CA to the file of the CA that signed it.');
  }, 60_000);

  it('a client certificate of another CA is refused by the server', async () => {
    const refusedBefore = proxy.refused.length;
    const env = { ...tlsEnv(), TEMPORAL_TLS_CERT: certs.strangerCert, TEMPORAL_TLS_KEY: certs.strangerKey };
    const line = await expectTlsRefused(env);
    expect(proxy.refused.length).toBeGreaterThan(refusedBefore);
    // Node's TLS server hangs up without an alert; a Go server (Temporal's) says "bad certificate".
    expect(line).toContain(
      `it refused the client certificate in TEMPORAL_TLS_CERT (${certs.strangerCert}): it hung up right after the handshake.`,
    );
    expect(line).toContain(
      'Set TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY to a certificate and key its CA signed.',
    );
  }, 60_000);

  it('no client certificate is refused by the server', async () => {
    const { TEMPORAL_TLS_CERT: _, TEMPORAL_TLS_KEY: __, ...env } = tlsEnv();
    const line = await expectTlsRefused(env);
    expect(line).toContain(
      'it wants a client certificate, and none was sent (tlsv13 alert certificate required). Set TEMPORAL_TLS_CERT',
    );
  }, 60_000);
});
