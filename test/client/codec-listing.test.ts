import { randomBytes, randomUUID } from 'node:crypto';
import { Client, type Connection } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { AesGcmCodec, parseCodecKeys } from '../../src/client/codec.ts';
import { runsInFlightAt } from '../../src/client/run-list.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// A run encrypted with a key this process lacks is still listed: listings read search attributes (in clear), and
// the SDK's eager decoding of the run's encrypted memo must not fail the whole listing (issue 48).

const started: { workflowId: string }[] = [];
let connection: Connection | undefined;

afterAll(async () => {
  if (!connection) return;
  const client = new Client({ connection });
  for (const { workflowId } of started)
    await client.workflow
      .getHandle(workflowId)
      .terminate('test over')
      .catch(() => undefined);
  await connection.close();
});

describe('listings beside encrypted runs', () => {
  it('server stop still names a running run whose memo is encrypted with a key it does not have', async () => {
    connection = await ClosableConnection.connect({ address: temporalAddress() });
    const sealed = new Client({
      connection,
      dataConverter: { payloadCodecs: [new AesGcmCodec(parseCodecKeys(randomBytes(32).toString('base64')))] },
    });
    const runId = `sealed-${randomUUID().slice(0, 8)}`;
    const workflowId = `llm-evals/${runId}`;
    await sealed.workflow.start('compareRun', {
      taskQueue: `nobody-${runId}`,
      workflowId,
      args: [{ runId, secret: 'case text' }],
      memo: { header: { suite: 'secret-suite' } },
      searchAttributes: { LlmEvalsRunId: [runId], LlmEvalsSuite: ['codec'], LlmEvalsProject: ['p'] },
    });
    started.push({ workflowId });
    let found: string[] = [];
    for (let i = 0; i < 50 && !found.includes(runId); i++) {
      found = (await runsInFlightAt(temporalAddress())).map((r) => r.runId);
      if (!found.includes(runId)) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(found).toContain(runId);
  });
});
