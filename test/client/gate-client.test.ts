import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type WorkflowClientInterceptor, type Connection } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newGate, type Failure } from '../../src/core/coordinator.ts';
import { gateWorkflowId } from '../../src/core/run-input.ts';
import { temporalGate, type LookTimes, type TemporalGate } from '../../src/client/gate-client.ts';
import { plainWorkflowBundle } from '../helpers/plain-bundle.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// The gate client reads the gate's pause, abort and vendor windows with a query its calls share, on a real gate
// workflow. A client interceptor makes every query take QUERY_MS and can hold queries unanswered, as a server that
// went away would: a call that waits for a query takes at least QUERY_MS, one that goes by the look it has returns
// well within it.

const QUERY_MS = 300;

let connection: Connection;
let native: NativeConnection;
let client: Client;
// Queries counted by gate workflow: a gate client of an earlier test still renews its look for a few seconds after
// that test, and its queries must not count in the next one.
const queryCounts = new Map<string, number>();
const queries = (runId: string) => queryCounts.get(gateWorkflowId(runId)) ?? 0;
let held: Promise<void> | undefined;

beforeAll(async () => {
  connection = await ClosableConnection.connect({ address: temporalAddress() });
  native = await NativeConnection.connect({ address: temporalAddress() });
  const slowQueries: WorkflowClientInterceptor = {
    async query(input, next) {
      const id = input.workflowExecution.workflowId;
      queryCounts.set(id, (queryCounts.get(id) ?? 0) + 1);
      await sleep(QUERY_MS);
      await held;
      return next(input);
    },
  };
  client = new Client({ connection, interceptors: { workflow: [slowQueries] } });
});

afterAll(async () => {
  await connection?.close();
  await native?.close();
});

const FAILURE: Failure = { contender: 'c', dataset: 'd', caseKey: 'd/v/001', error: 'HTTP 500' };

/**
 * Runs `body` against a gate client and a fresh gate workflow served by a worker of this process; `look` replaces
 * the product's look times.
 */
async function withGate(
  body: (gate: TemporalGate, runId: string) => Promise<void>,
  look?: LookTimes,
): Promise<void> {
  const taskQueue = `test-${randomUUID()}`;
  const worker = await Worker.create({
    connection: native,
    taskQueue,
    workflowBundle: await plainWorkflowBundle(),
  });
  const runId = `t-${randomUUID().slice(0, 8)}`;
  await worker.runUntil(async () => {
    const handle = await client.workflow.start('runGate', {
      workflowId: gateWorkflowId(runId),
      taskQueue,
      args: [newGate({})],
    });
    try {
      await body(temporalGate(client, look), runId);
    } finally {
      await handle.terminate('test over');
    }
  });
}

/** How long a call that no limit counts waits for its slot, in ms. */
async function slotMs(gate: TemporalGate, runId: string): Promise<number> {
  const started = performance.now();
  const answer = await gate.slot(runId, { keys: [], vendor: 'v' });
  expect('startAt' in answer && typeof answer.startAt).toBe('number');
  return performance.now() - started;
}

describe('temporalGate, for calls that no limit counts', () => {
  it('keeps its look at the gate after successes; a failure makes the next call read the gate again', async () => {
    // Looks that no load on the machine ages within this test, and that are never renewed in the background: every
    // query counted is one a call made. (Timed against the product's 600 ms, a slow signal under load aged the look
    // and the call waited for its renewal.)
    const lasting = { viewMs: 60_000, renewAtMs: 60_000 };
    await withGate(async (gate, runId) => {
      expect(await slotMs(gate, runId)).toBeGreaterThanOrEqual(QUERY_MS);
      const looked = queries(runId);
      expect(looked).toBe(1);
      expect(await gate.report(runId, [null, null, null])).toBe('running');
      await slotMs(gate, runId);
      expect(queries(runId)).toBe(looked);
      expect(await gate.report(runId, [null, FAILURE])).toBe('running');
      expect(await slotMs(gate, runId)).toBeGreaterThanOrEqual(QUERY_MS);
      expect(queries(runId)).toBe(looked + 1);
    }, lasting);
  }, 60_000);

  it('renews its look while calls run, so calls two seconds after the last ones do not wait', async () => {
    // A look good for 1.5 s: not renewed, it would be 2 s old when the next calls come; renewed from 350 ms on, it is
    // never older than a renewal's round trip, with room for a loaded machine.
    const renewed = { viewMs: 1500, renewAtMs: 350 };
    await withGate(async (gate, runId) => {
      expect(await slotMs(gate, runId)).toBeGreaterThanOrEqual(QUERY_MS);
      const before = queries(runId);
      for (let wave = 0; wave < 2; wave++) {
        await sleep(2000);
        const waits = await Promise.all(Array.from({ length: 20 }, () => slotMs(gate, runId)));
        expect(Math.max(...waits)).toBeLessThan(QUERY_MS);
      }
      // Renewed in the background, a few times a second, not once per call.
      expect(queries(runId) - before).toBeGreaterThanOrEqual(2);
      expect(queries(runId) - before).toBeLessThan(60);
    }, renewed);
  }, 60_000);

  it('makes calls wait once the gate stops answering, and lets them go when it answers again', async () => {
    await withGate(async (gate, runId) => {
      await slotMs(gate, runId);
      let answer!: () => void;
      held = new Promise((resolve) => (answer = resolve));
      try {
        await sleep(1000);
        let done = false;
        const call = slotMs(gate, runId).finally(() => (done = true));
        await sleep(1000);
        expect(done).toBe(false);
        answer();
        expect(await call).toBeGreaterThanOrEqual(1000);
      } finally {
        held = undefined;
        answer();
      }
    });
  }, 60_000);
});

describe('temporalGate, for the live view', () => {
  it("shares the calls' look: no query of its own while theirs is recent, and its own read serves them", async () => {
    // A look good for 2.5 s and never renewed, so that a loaded machine does not age it before the view asks.
    const lasting = { viewMs: 2500, renewAtMs: 60_000 };
    await withGate(async (gate, runId) => {
      await slotMs(gate, runId);
      const before = queries(runId);
      await expect(gate.state(runId)).resolves.toMatchObject({ state: 'running' });
      expect(queries(runId)).toBe(before);
      // 3 s later the look is old: the view reads one, and the call that comes while it is read waits for that read.
      await sleep(3000);
      const idle = queries(runId);
      const [state, wait] = await Promise.all([gate.state(runId), slotMs(gate, runId)]);
      expect(state.state).toBe('running');
      expect(wait).toBeGreaterThanOrEqual(QUERY_MS);
      expect(queries(runId)).toBe(idle + 1);
    }, lasting);
  }, 60_000);

  it('does not keep the look renewed: a view read once a second makes one query a second', async () => {
    await withGate(async (gate, runId) => {
      const before = queries(runId);
      for (let tick = 0; tick < 3; tick++) {
        await gate.state(runId);
        await sleep(1000);
      }
      expect(queries(runId) - before).toBe(3);
    });
  }, 60_000);
});
