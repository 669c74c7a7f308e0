import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { NativeConnection, Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { newGate } from '../../src/core/coordinator.ts';
import { gateWorkflowId, runWorkflowId, type RunInput } from '../../src/core/run-input.ts';
import { Runs } from '../../src/client/runs.ts';
import { plainWorkflowBundle } from '../helpers/plain-bundle.ts';
import { RUN_HEADER, temporalAddress, testClient } from '../helpers/temporal.ts';

// Runs on a real dev server. With no worker the run's workflows wait, which is all most of these tests need.

const client = testClient();

function inputFor(runId: string): RunInput {
  return {
    runId,
    suite: 'test',
    contenders: [],
    experiments: [],
    datasets: { d: [['d/v/001', 'h1']] },
    parallelism: 1,
    concurrency: 1,
    limits: {},
    tracking: { project: 'test' },
  };
}

describe('Runs.inputOf', () => {
  it('answers a run this process started from what it was given, and any other run by reading it', async () => {
    const runId = `t-${randomUUID().slice(0, 8)}`;
    const input = inputFor(runId);
    const starter = new Runs(client());
    // A command serving its own run keeps what it knows (its worker tracks the run's experiments).
    starter.keepClosedResults();
    await starter.start(`test-${randomUUID()}`, input, RUN_HEADER);
    try {
      const kept = await starter.inputOf(runId);
      expect(kept.input).toBe(input);
      expect(kept.header).toBe(RUN_HEADER);
      // Another process (a `worker`) reads the same from Temporal.
      const read = await new Runs(client()).inputOf(runId);
      expect(read.input).not.toBe(input);
      expect(read).toEqual({ input, header: RUN_HEADER });
    } finally {
      await client().workflow.getHandle(runWorkflowId(runId)).terminate('test over');
      await client().workflow.getHandle(gateWorkflowId(runId)).terminate('test over');
    }
  });
});

describe('Runs.stateOf', () => {
  it('does not wait for a gate no worker can answer', async () => {
    const runId = `t-${randomUUID().slice(0, 8)}`;
    const runs = new Runs(client());
    // A task queue no worker has polled: as a run started with --no-worker.
    await runs.start(`test-${randomUUID()}`, inputFor(runId), RUN_HEADER);
    try {
      const asked = Date.now();
      expect(await runs.stateOf(runId)).toEqual({ state: 'running', gateKnown: false });
      // Before, the gate's query waited out its 2 s deadline.
      expect(Date.now() - asked).toBeLessThan(1500);
    } finally {
      await client().workflow.getHandle(runWorkflowId(runId)).terminate('test over');
      await client().workflow.getHandle(gateWorkflowId(runId)).terminate('test over');
    }
  });
});

describe('Runs.closed', () => {
  it("waits for a completed run's gate to close too, so the worker that serves both does not stop first", async () => {
    const runId = `t-${randomUUID().slice(0, 8)}`;
    const input = { ...inputFor(runId), datasets: {} };
    // The run on a queue a worker serves; its gate on another, served only later: the gate's last task is late.
    const runQueue = `test-run-${randomUUID()}`;
    const gateQueue = `test-gate-${randomUUID()}`;
    const native = await NativeConnection.connect({ address: temporalAddress() });
    const worker = async (taskQueue: string) =>
      Worker.create({ connection: native, taskQueue, workflowBundle: await plainWorkflowBundle() });
    const [runWorker, gateWorker] = await Promise.all([worker(runQueue), worker(gateQueue)]);
    const gate = await client().workflow.start('runGate', {
      workflowId: gateWorkflowId(runId),
      taskQueue: gateQueue,
      args: [newGate({})],
    });
    try {
      await runWorker.runUntil(async () => {
        await client().workflow.start('compareRun', {
          workflowId: runWorkflowId(runId),
          taskQueue: runQueue,
          args: [input],
        });
        let closedAt = 0;
        const closed = new Runs(client()).closed(runId).then((result) => {
          closedAt = performance.now();
          return result;
        });
        // No experiment: the run signals its gate to finish and completes.
        await client().workflow.getHandle(runWorkflowId(runId)).result();
        await sleep(500);
        expect(closedAt).toBe(0);
        const servedAt = performance.now();
        await gateWorker.runUntil(async () => {
          expect((await closed)?.state).toBe('completed');
          expect(closedAt).toBeGreaterThanOrEqual(servedAt);
          expect((await gate.describe()).status.name).toBe('COMPLETED');
        });
      });
    } finally {
      await gate.terminate('test over').catch(() => undefined);
      await native.close();
    }
  });
});

describe('a run this process started and saw complete', () => {
  it('is read from what the process knows, not asked of Temporal again', async () => {
    const runId = `t-${randomUUID().slice(0, 8)}`;
    const taskQueue = `test-${randomUUID()}`;
    const native = await NativeConnection.connect({ address: temporalAddress() });
    const own = await ClosableConnection.connect({ address: temporalAddress() });
    const worker = await Worker.create({
      connection: native,
      taskQueue,
      workflowBundle: await plainWorkflowBundle(),
    });
    const runs = new Runs(new Client({ connection: own }));
    runs.keepClosedResults();
    try {
      const input = { ...inputFor(runId), datasets: {} };
      const result = await worker.runUntil(async () => {
        await runs.start(taskQueue, input, RUN_HEADER);
        return runs.closed(runId);
      });
      expect(result?.state).toBe('completed');
      // With its connection closed, the process still answers for the run: its record and result come from memory.
      await own.close();
      const record = await runs.read(runId);
      expect(record).toMatchObject({ status: 'COMPLETED', closed: true, taskQueue, header: RUN_HEADER });
      expect(record.input).toBe(input);
      expect(await runs.outcome(runId)).toBe(result);
      await expect(runs.read(`${runId}-other`)).rejects.toThrow();
    } finally {
      await native.close();
    }
  });
});
