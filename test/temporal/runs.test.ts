import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateWorkflowId, runWorkflowId, type RunInput } from '../../src/core/run-input.ts';
import { Runs } from '../../src/temporal/runs.ts';
import { RUN_HEADER, temporalAddress } from '../helpers/temporal.ts';

// Runs on a real dev server, with no worker: the run's workflows wait, which is all these tests need.

let connection: Connection;
let client: Client;

beforeAll(async () => {
  connection = await Connection.connect({ address: temporalAddress() });
  client = new Client({ connection });
});

afterAll(async () => {
  await connection?.close();
});

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
    const starter = new Runs(client);
    // A command serving its own run keeps what it knows (its worker tracks the run's experiments).
    starter.keepClosedResults();
    await starter.start(`test-${randomUUID()}`, input, RUN_HEADER);
    try {
      const kept = await starter.inputOf(runId);
      expect(kept.input).toBe(input);
      expect(kept.header).toBe(RUN_HEADER);
      // Another process (a `worker`) reads the same from Temporal.
      const read = await new Runs(client).inputOf(runId);
      expect(read.input).not.toBe(input);
      expect(read).toEqual({ input, header: RUN_HEADER });
    } finally {
      await client.workflow.getHandle(runWorkflowId(runId)).terminate('test over');
      await client.workflow.getHandle(gateWorkflowId(runId)).terminate('test over');
    }
  });
});
