// Records the replay fixtures: runs the tests that walk every workflow path (first calls, exchange, retry, a retry and
// a pool whose attempt Temporal gave up on, continue-as-new, pause and answer, cancel, a schedule's fire, a regressed
// run, a worker that cannot call a contender, a batch step no worker could serve) with LLM_EVALS_KEEP_HISTORIES set,
// so that each test server's histories are kept before it stops, then picks for each path of
// test/helpers/history-paths.ts the smallest history on it and writes it to
// test/fixtures/histories/<version>/<path>.json. test/replay.test.ts replays every fixture with the current workflow
// code and checks that every path has one. Run it after a release's last workflow change, and commit what it writes:
//   node --import tsx dev/record-histories.ts [TEST_FILE ...]
// Given test files, it runs only those and keeps this release's fixtures of the paths they did not walk.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HISTORY_PATHS, type HistoryJson } from '../test/helpers/history-paths.ts';

const repo = resolve(import.meta.dirname, '..');
const version = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
const FILES = [
  'test/e2e/compare.test.ts',
  'test/workflows/compare-run.test.ts',
  'test/pressure/pause.test.ts',
  'test/durable/cancel.test.ts',
  'test/durable/resume-worker-kill.test.ts',
  'test/durable/resume-server-kill.test.ts',
  'test/e2e/schedule.test.ts',
  'test/e2e/batch.test.ts',
  'test/cli/worker-keys.test.ts',
  'test/cli/worker-keys-batch.test.ts',
  'test/cli/scorer-throws.test.ts',
];

const kept = mkdtempSync(join(tmpdir(), 'llm-evals-histories-'));
const only = process.argv.slice(2);
const ran = spawnSync('npx', ['vitest', 'run', ...(only.length > 0 ? only : FILES)], {
  cwd: repo,
  env: { ...process.env, LLM_EVALS_KEEP_HISTORIES: kept },
  stdio: 'inherit',
});
if (ran.status !== 0) console.warn(`the tests exited ${ran.status}: the paths they walked are still picked`);

const files: string[] = [];
const walk = (dir: string) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.json')) files.push(path);
  }
};
walk(kept);
const out = join(repo, 'test', 'fixtures', 'histories', version);
if (only.length === 0) rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
let missing = 0;
for (const path of HISTORY_PATHS) {
  const on = files
    .filter((file) => path.matches(JSON.parse(readFileSync(file, 'utf8')) as HistoryJson))
    .sort((a, b) => statSync(a).size - statSync(b).size);
  if (on.length === 0) {
    const kept = existsSync(join(out, `${path.name}.json`));
    console.error(
      `no history on the path ${path.name} (${path.what})${kept ? '; the fixture before stays' : ''}`,
    );
    if (!kept) missing++;
    continue;
  }
  writeFileSync(join(out, `${path.name}.json`), readFileSync(on[0]!));
  console.log(
    `${path.name}: ${on.length} histories on it; kept the smallest (${statSync(on[0]!).size} bytes)`,
  );
}
rmSync(kept, { recursive: true, force: true });
process.exit(missing === 0 ? 0 : 1);
