// Records the workflow histories of one toy-suite run (the run, its gate, its experiments) for the replay tests.
// Run it after a deliberate change to workflow code, on a server of your own, and commit the files it writes:
//   node --import tsx dev/record-histories.ts 127.0.0.1:7233
// test/replay.test.ts replays them with the current workflow code, so a change that would break runs in flight fails CI.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { findTemporalBinary } from '../temporal/binary.ts';

const address = process.argv[2] ?? '127.0.0.1:7233';
const repo = resolve(import.meta.dirname, '..');
const out = join(repo, 'test', 'fixtures', 'histories');
const env = {
  ...process.env,
  TEMPORAL_ADDRESS: address,
  LLM_EVALS_TASK_QUEUE: `record-${Date.now()}`,
  NO_COLOR: '1',
};
const run = spawnSync(
  process.execPath,
  [join(repo, 'bin', 'llm-evals.mjs'), 'compare', '--display', 'tui', '-j', '2', '-p', '2'],
  {
    cwd: join(repo, 'examples', 'toy-suite'),
    env,
    encoding: 'utf8',
  },
);
const runId = /run (\S+) started/.exec(run.stderr)?.[1];
if (run.status !== 0 || !runId) throw new Error(`compare failed:\n${run.stderr}`);

const temporal = await findTemporalBinary();
const client = new Client({ connection: await Connection.connect({ address }) });
mkdirSync(out, { recursive: true });
for await (const execution of client.workflow.list({ query: `LlmEvalsRunId = '${runId}'` })) {
  // The Temporal CLI writes the history in the proto JSON form that historyFromJSON reads back.
  const shown = spawnSync(
    temporal,
    [
      'workflow',
      'show',
      '--address',
      address,
      '-w',
      execution.workflowId,
      '-r',
      execution.runId,
      '--output',
      'json',
    ],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  if (shown.status !== 0) throw new Error(shown.stderr);
  const name = `${execution.type}-${execution.workflowId.split('/').slice(2).join('-') || 'run'}.json`;
  writeFileSync(join(out, name), shown.stdout);
  console.log(`wrote ${name}`);
}
await client.connection.close();
