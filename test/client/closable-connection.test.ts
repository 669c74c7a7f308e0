import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { temporalAddress } from '../helpers/temporal.ts';

describe('ClosableConnection', () => {
  // A query to a workflow no worker serves is held by the server for 30 s, then fails as unavailable. On the SDK's
  // own Connection that failure is retried on the channel closed meanwhile, and the retry throws "Channel has been
  // shut down" from its timer, where no one catches it (tried by hand: at 30.1 s, twice; this test then times out).
  it('closed with a call in flight: the call fails to the one waiting for it, and nothing else is thrown', async () => {
    const uncaught: string[] = [];
    const catcher = (error: Error) => void uncaught.push(error.message);
    // Vitest's own listener would report the exception as the run's error; this test reads it instead.
    const theirs = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', catcher);
    const connection = await ClosableConnection.connect({ address: temporalAddress() });
    const id = `held-${randomUUID()}`;
    try {
      const handle = await new Client({ connection }).workflow.start('nothing', {
        taskQueue: `nobody-${randomUUID()}`,
        workflowId: id,
      });
      const query = handle.query('anything').then(
        () => 'answered',
        () => 'failed',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await connection.close();
      expect(await query).toBe('failed');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', catcher);
      for (const listener of theirs) process.on('uncaughtException', listener);
      const again = await Connection.connect({ address: temporalAddress() });
      await new Client({ connection: again }).workflow.getHandle(id).terminate();
      await again.close();
    }
  }, 60_000);

  it('refuses interceptors of its own: its retries are the ones it can stop', async () => {
    await expect(
      ClosableConnection.connect({ address: temporalAddress(), interceptors: [] }),
    ).rejects.toThrow('a ClosableConnection makes its own interceptors');
  });
});
