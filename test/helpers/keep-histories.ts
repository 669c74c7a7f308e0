import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';

/**
 * Where the tests keep every workflow history of their servers before stopping them, when
 * `LLM_EVALS_KEEP_HISTORIES` names a folder (dev/record-histories.ts sets it, then picks the replay fixtures).
 */
export function keptHistoriesDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.LLM_EVALS_KEEP_HISTORIES || undefined;
}

/**
 * Writes the history of every workflow execution on the server at `address` (each run of a continue-as-new chain
 * apart) to `<dir>/<label>/`, in the proto JSON form `historyFromJSON` reads back. Never throws: a server that went
 * away leaves what was written.
 */
export async function keepHistories(address: string, dir: string, label: string): Promise<number> {
  const out = join(dir, label);
  mkdirSync(out, { recursive: true });
  let kept = 0;
  try {
    const connection = await ClosableConnection.connect({ address, connectTimeout: 5000 });
    try {
      const client = new Client({ connection });
      for await (const execution of client.workflow.list()) {
        const handle = client.workflow.getHandle(execution.workflowId, execution.runId);
        const history = await handle.fetchHistory();
        const name = `${execution.type}__${execution.workflowId.replaceAll('/', '_')}__${execution.runId}.json`;
        writeFileSync(join(out, name), historyToJSON(history));
        kept++;
      }
    } finally {
      await connection.close();
    }
  } catch (error) {
    process.stderr.write(`keepHistories(${address}): ${(error as Error).message}\n`);
  }
  return kept;
}
