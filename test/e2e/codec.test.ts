import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliLong, startCli } from '../helpers/cli.ts';
import { recordFileIn, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs, writeTree } from '../helpers/suite-dir.ts';
import { freeServerPort, temporalBinary } from '../helpers/temporal.ts';

// Issue 48: with LLM_EVALS_CODEC_KEYS set, no case input, expected answer or reply reaches the server in clear, as the
// `temporal` CLI reads its raw histories; a run without the codec beside it still works, and the CLI without the key
// names the key a run needs.

const dirs = new TempDirs();
// Held out: written into one case's input and expected answer, which the recording provider echoes as its reply.
const MARKER = `held-out-${randomUUID()}`;
// Held out too: the message of a provider error, which fails one case's retry (an activity failure) before it answers.
const FAILURE_MARKER = `failure-marker-${randomUUID()}`;
const KEY = randomBytes(32).toString('base64');
const KEYS = `team1:${KEY}`;
let dir: string;
let env: NodeJS.ProcessEnv;
let address: string;
const runIds: { sealed?: string; clear?: string } = {};

/** `temporal ARGS --address … --output json`, parsed. */
function temporal(args: string[]): unknown {
  const out = execFileSync(temporalBinary(), [...args, '--address', address, '--output', 'json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out) as unknown;
}

/** Every workflow execution of a run (the run's own and its children, each execution of a continued one). */
function executionsOf(runId: string): { workflowId: string; runId: string }[] {
  const listed = temporal(['workflow', 'list', '--query', `WorkflowId STARTS_WITH 'llm-evals/${runId}'`]) as {
    execution: { workflowId: string; runId: string };
  }[];
  return listed.map((w) => w.execution);
}

/** A raw history as the `temporal` CLI shows it, with every base64 string beside it decoded (payload bytes). */
function rawHistory(execution: { workflowId: string; runId: string }): string {
  const text = JSON.stringify(
    temporal(['workflow', 'show', '--workflow-id', execution.workflowId, '--run-id', execution.runId]),
  );
  const decoded = [...text.matchAll(/"([A-Za-z0-9+/]{4,}={0,2})"/g)].map((m) =>
    Buffer.from(m[1]!, 'base64').toString('latin1'),
  );
  return [text, ...decoded].join('\n');
}

beforeAll(async () => {
  dir = dirs.inRepo('codec-');
  writeRecordingSuite(dir, 4);
  writeTree(dir, {
    'evals/datasets/north/cases/clear/001/input.txt': `Case north/clear/001 (${MARKER}): say it back.\n`,
    'evals/datasets/north/cases/clear/001/expected.json': JSON.stringify({
      id: 'north/clear/001',
      note: MARKER,
    }),
  });
  env = {
    TEMPORAL_ADDRESS: '',
    LLM_EVALS_STATE_DIR: join(dir, '.llm-evals'),
    LLM_EVALS_TEMPORAL_PORT: String(await freeServerPort()),
    RECORD_FILE: recordFileIn(dir),
    RECORDING_API_KEY: 'sk-codec',
    // One case's first try and the first attempt of its retry activity fail: the second attempt's start event carries
    // that failure, written once the retry ends, while the experiment's other case (6 s) still runs.
    CALL_DELAY_MS: '6000',
    RETRY_CALL_MS: '10',
    FAIL_ONCE: 'rec/alpha south/clear/002',
    FAIL_TIMES: '2',
    FAIL_MESSAGE: `overloaded (${FAILURE_MARKER})`,
  };
  for (const [name, keys] of [
    ['sealed', KEYS],
    ['clear', undefined],
  ] as const) {
    rmSync(`${env.RECORD_FILE}.failed`, { force: true });
    const result = await runCliLong(['compare', '--no-open'], {
      cwd: dir,
      env: { ...env, ...(keys ? { LLM_EVALS_CODEC_KEYS: keys } : {}) },
    });
    if (result.code !== 0) throw new Error(`compare (${name}) exited ${result.code}:\n${result.stderr}`);
    runIds[name] = /run (\S+) started/.exec(result.stderr)![1]!;
  }
  address = (JSON.parse(readFileSync(join(dir, '.llm-evals/server.json'), 'utf8')) as { address: string })
    .address;
}, 240_000);

afterAll(async () => {
  if (dir) await runCli(['server', 'stop', '--force'], { cwd: dir, env });
  dirs.removeAll();
});

describe('payloads encrypted with LLM_EVALS_CODEC_KEYS (issue 48)', () => {
  it('no raw history of the encrypted run holds the held-out marker; the clear run’s do', () => {
    const sealed = executionsOf(runIds.sealed!);
    const clear = executionsOf(runIds.clear!);
    // The run, its gate and its experiments (2 models × 2 datasets), each read.
    expect(sealed.length).toBeGreaterThanOrEqual(5);
    expect(clear.length).toBeGreaterThanOrEqual(5);
    const sealedTexts = sealed.map(rawHistory);
    expect(sealedTexts.filter((t) => t.includes(MARKER))).toEqual([]);
    expect(sealedTexts.filter((t) => t.includes('north/clear/001'))).toEqual([]);
    // Failures too: their messages and stack traces are encrypted (encodeCommonAttributes), not only payloads.
    expect(sealedTexts.filter((t) => t.includes(FAILURE_MARKER)).length, 'histories with it in clear').toBe(
      0,
    );
    expect(sealedTexts.some((t) => t.includes('binary/encrypted') && t.includes('team1'))).toBe(true);
    // A failure was recorded (its start event carries the retry's), its message and stack left out of the clear text.
    expect(sealedTexts.some((t) => t.includes('Encoded failure'))).toBe(true);
    // The same reading finds the markers where no codec was on: the checks above can see them.
    expect(clear.map(rawHistory).some((t) => t.includes(MARKER))).toBe(true);
    expect(clear.map(rawHistory).some((t) => t.includes(FAILURE_MARKER))).toBe(true);
  });

  it('with the key, status and report read the encrypted run in full', async () => {
    const keyed = { ...env, LLM_EVALS_CODEC_KEYS: `new:${randomBytes(32).toString('base64')},${KEYS}` };
    const status = await runCli(['status', runIds.sealed!], { cwd: dir, env: keyed });
    expect(status.code, status.stderr).toBe(0);
    const report = await runCli(['report', runIds.sealed!, '--no-open'], {
      cwd: dir,
      env: keyed,
    });
    expect(report.code, report.stderr).toBe(0);
  });

  it.each([
    ['no key list', undefined],
    ['a key list without its key', `other:${randomBytes(32).toString('base64')}`],
  ])('%s: status and report say the run is encrypted and which key it needs, exit 2', async (_, keys) => {
    const given = { ...env, ...(keys ? { LLM_EVALS_CODEC_KEYS: keys } : {}) };
    for (const command of ['status', 'report']) {
      const result = await runCli([command, runIds.sealed!], { cwd: dir, env: given });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('LLM_EVALS_CODEC_KEYS');
      expect(result.stderr).toMatch(/encrypted with codec key id "team1"/);
      expect(result.stderr).not.toMatch(/[A-Za-z0-9+/]{40,}/);
    }
    // The run without the codec reads as ever.
    const clear = await runCli(['status', runIds.clear!], { cwd: dir, env: given });
    expect(clear.code, clear.stderr).toBe(0);
    // `runs` lists both: the encrypted one by the key it needs, nothing of it read, the other in full.
    const runs = await runCli(['runs', '--all'], { cwd: dir, env: given });
    expect(runs.code, runs.stderr).toBe(0);
    const line = (id: string) => runs.stdout.split('\n').find((l) => l.includes(id)) ?? '';
    expect(line(runIds.sealed!)).toContain('encrypted (key team1)');
    expect(line(runIds.clear!)).toMatch(/completed/);
  });

  it('a key that is not 32 bytes of base64: exit 2 naming the setting and its position, nothing sent', async () => {
    const calls = readFileSync(env.RECORD_FILE!, 'utf8');
    const before = executionsOf('').length;
    const result = await runCli(['compare', '--no-open'], {
      cwd: dir,
      env: { ...env, LLM_EVALS_CODEC_KEYS: `${KEY},c2hvcnQ=` },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('LLM_EVALS_CODEC_KEYS: key 2 is not 32 bytes of base64');
    expect(readFileSync(env.RECORD_FILE!, 'utf8')).toBe(calls);
    expect(executionsOf('').length).toBe(before);
  });
});

describe('connection profiles (TEMPORAL_PROFILE, temporal.toml)', () => {
  it('a profile names the server; one that does not exist is exit 2 naming it', async () => {
    const file = join(dir, 'temporal.toml');
    writeFileSync(file, `[profile.team]\naddress = "${address}"\nnamespace = "default"\n`);
    const base = {
      ...env,
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_CONFIG_FILE: file,
      LLM_EVALS_CODEC_KEYS: KEYS,
    };
    const found = await runCli(['status', runIds.sealed!], {
      cwd: dir,
      env: { ...base, TEMPORAL_PROFILE: 'team' },
    });
    expect(found.code, found.stderr).toBe(0);
    const missing = await runCli(['status', runIds.sealed!], {
      cwd: dir,
      env: { ...base, TEMPORAL_PROFILE: 'nowhere' },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`TEMPORAL_PROFILE: no profile "nowhere" in ${file}`);
  });
});

describe('codec-server', () => {
  it('serves /encode and /decode to the Web UI: CORS for its origin, the token refused or accepted', async () => {
    const server = startCli(
      ['codec-server', '--port', '0', '--token', 'tok-123', '--origin', 'http://ui.test'],
      {
        cwd: dir,
        env: { ...env, LLM_EVALS_CODEC_KEYS: KEYS },
      },
    );
    try {
      const url = (await server.waitFor(/http:\/\/127\.0\.0\.1:\d+/))[0];
      const preflight = await fetch(`${url}/decode`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://ui.test', 'Access-Control-Request-Method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://ui.test');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
      const other = await fetch(`${url}/decode`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://evil.test' },
      });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const plain = {
        metadata: { encoding: Buffer.from('json/plain').toString('base64') },
        data: Buffer.from(JSON.stringify(MARKER)).toString('base64'),
      };
      const post = (path: string, body: unknown, token?: string) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Origin: 'http://ui.test',
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        });
      expect((await post('/encode', { payloads: [plain] })).status).toBe(401);
      expect((await post('/encode', { payloads: [plain] }, 'wrong')).status).toBe(401);
      const encoded = await post('/encode', { payloads: [plain] }, 'tok-123');
      expect(encoded.status).toBe(200);
      expect(encoded.headers.get('access-control-allow-origin')).toBe('http://ui.test');
      const sealed = (
        (await encoded.json()) as { payloads: { metadata: Record<string, string>; data: string }[] }
      ).payloads[0]!;
      expect(Buffer.from(sealed.metadata['encryption-key-id']!, 'base64').toString()).toBe('team1');
      expect(Buffer.from(sealed.data, 'base64').includes(MARKER)).toBe(false);
      const decoded = await post('/decode', { payloads: [sealed] }, 'tok-123');
      expect(((await decoded.json()) as { payloads: unknown[] }).payloads).toEqual([plain]);
    } finally {
      server.child.kill('SIGINT');
      await server.done;
    }
  });
});
