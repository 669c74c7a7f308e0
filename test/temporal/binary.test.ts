import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TEMPORAL_CLI_VERSION,
  findTemporalBinary,
  goInstallCommand,
  temporalCacheDir,
} from '../../temporal/binary.ts';
import { TemporalBinaryInvalid, TemporalBinaryNotFound, TemporalBuildFailed } from '../../temporal/errors.ts';

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

const cachedPath = (cacheRootDir: string) => join(temporalCacheDir(cacheRootDir), 'temporal');

describe('findTemporalBinary lookup order', () => {
  it('prefers LLM_EVALS_TEMPORAL_BIN over PATH and the cache', async () => {
    const explicit = await script(join(root, 'mine', 'temporal'), 'exit 0');
    await script(join(bin, 'temporal'), 'exit 0');
    await script(cachedPath(cacheRoot), 'exit 0');
    const env = { PATH: bin, LLM_EVALS_TEMPORAL_BIN: explicit };
    await expect(findTemporalBinary({ env, cacheRoot })).resolves.toBe(explicit);
  });

  it.each([
    ['a missing file', (dir: string) => Promise.resolve(join(dir, 'nope', 'temporal'))],
    ['a file that is not executable', (dir: string) => script(join(dir, 'plain'), 'exit 0', 0o644)],
    ['a directory', (dir: string) => Promise.resolve(dir)],
  ])('rejects LLM_EVALS_TEMPORAL_BIN naming %s, naming the variable and value', async (_, make) => {
    const value = await make(root);
    await script(join(bin, 'temporal'), 'exit 0');
    const found = findTemporalBinary({ env: { PATH: bin, LLM_EVALS_TEMPORAL_BIN: value }, cacheRoot });
    await expect(found).rejects.toBeInstanceOf(TemporalBinaryInvalid);
    await expect(found).rejects.toThrow(`LLM_EVALS_TEMPORAL_BIN=${value}`);
  });

  it('uses temporal on PATH before the cache', async () => {
    const onPath = await script(join(bin, 'temporal'), 'exit 0');
    await script(cachedPath(cacheRoot), 'exit 0');
    await expect(findTemporalBinary({ env: { PATH: `/nonexistent:${bin}` }, cacheRoot })).resolves.toBe(
      onPath,
    );
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

  it('says how to install the Temporal CLI when there is no binary and no Go', async () => {
    const found = findTemporalBinary({ env: { PATH: bin }, cacheRoot });
    await expect(found).rejects.toBeInstanceOf(TemporalBinaryNotFound);
    await expect(found).rejects.toThrow(/install Go.*\n.*PATH.*\n.*LLM_EVALS_TEMPORAL_BIN/);
  });

  it('does not build when build is false, even with Go on PATH', async () => {
    await script(join(bin, 'go'), `: > ${join(root, 'go-ran')}`);
    const found = findTemporalBinary({ env: { PATH: bin }, cacheRoot, build: false });
    await expect(found).rejects.toBeInstanceOf(TemporalBinaryNotFound);
    await expect(readdir(root)).resolves.not.toContain('go-ran');
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

  it('runs go install into a temporary GOBIN, then moves the binary into the cache', async () => {
    const record = join(root, 'record');
    await script(
      join(bin, 'go'),
      [
        `printf '%s\\n' "$@" > ${record}.args`,
        `printf '%s' "$GOBIN" > ${record}.gobin`,
        `printf '#!/bin/sh\\necho fake temporal\\n' > "$GOBIN/temporal"`,
        `/bin/chmod 755 "$GOBIN/temporal"`,
        'echo "go: downloading github.com/temporalio/cli v1.5.1" >&2',
      ].join('\n'),
    );
    const lines: string[] = [];
    const found = await findTemporalBinary({ env: { PATH: bin }, cacheRoot, log: (l) => lines.push(l) });

    expect(found).toBe(cachedPath(cacheRoot));
    expect((await readFile(`${record}.args`, 'utf8')).trimEnd().split('\n')).toEqual(
      goInstallCommand('go', '', {}).args,
    );
    const gobin = await readFile(`${record}.gobin`, 'utf8');
    expect(gobin).not.toBe(temporalCacheDir(cacheRoot));
    expect(dirname(gobin)).toBe(cacheRoot);
    expect(await readdir(cacheRoot)).toEqual([`temporal-${TEMPORAL_CLI_VERSION}`]);
    expect(lines[0]).toMatch(/once and may take several minutes/);
    await expect(findTemporalBinary({ env: { PATH: '' }, cacheRoot })).resolves.toBe(found);
  });

  it('reports the build error and caches nothing when go install fails', async () => {
    await script(
      join(bin, 'go'),
      'echo "go: github.com/temporalio/cli@v1.5.1: no route to proxy" >&2\nexit 1',
    );
    const found = findTemporalBinary({ env: { PATH: bin }, cacheRoot });
    await expect(found).rejects.toBeInstanceOf(TemporalBuildFailed);
    await expect(found).rejects.toThrow(/exit 1[\s\S]*no route to proxy/);
    expect(await readdir(cacheRoot)).toEqual([]);
  });
});
