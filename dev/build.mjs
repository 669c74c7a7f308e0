// Builds the JavaScript the CLI and the library run from: one esbuild pass over our TypeScript, split into shared
// chunks so the CLI and a suite's `import 'llm-evals'` share one copy of each module; packages stay external.
// In a checkout, bin/llm-evals.mjs calls ensureBuilt() on every start: it rebuilds only when a source is newer than
// the last build (a few milliseconds to check, a quarter second to build). `npm pack` runs it with --pack, which also
// writes the type declarations and the prebuilt workflow bundle that an installed package uses instead of webpack.
//   node dev/build.mjs [--pack]
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.built');
const SOURCES = ['cli.ts', 'worker.ts', 'package.json', 'src', 'activities', 'workflows', 'temporal'];
/** The entry points and the names they get in dist/: the CLI, the library, its testing fakes, the worker. */
export const ENTRIES = {
  cli: 'cli.ts',
  index: 'src/index.ts',
  testing: 'src/api/testing.ts',
  worker: 'worker.ts',
};

function newestSource() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else if (/\.(ts|mts|json)$/.test(path)) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) visit(join(ROOT, source));
  return newest;
}

function isFresh() {
  const stamp = statSync(STAMP, { throwIfNoEntry: false });
  return stamp !== undefined && stamp.mtimeMs >= newestSource();
}

/** Builds dist/ from the sources: each file written whole, entries last, so a running process never reads half. */
export async function build() {
  const { build: esbuild } = await import('esbuild');
  const started = newestSource();
  const out = join(ROOT, `dist.tmp-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  await esbuild({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(ENTRIES)
      .filter(([, file]) => existsSync(join(ROOT, file)))
      .map(([name, file]) => ({ in: file, out: name })),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    outdir: out,
    logLevel: 'warning',
  });
  mkdirSync(DIST, { recursive: true });
  // Chunks first (their names change with their content), then the entries that import them.
  const entry = (file) => Object.keys(ENTRIES).some((name) => file.startsWith(`${name}.js`));
  const files = readdirSync(out);
  for (const file of [...files.filter((f) => !entry(f)), ...files.filter(entry)]) {
    renameSync(join(out, file), join(DIST, file));
  }
  rmSync(out, { recursive: true, force: true });
  writeFileSync(STAMP, new Date(started).toISOString() + '\n');
}

/** Rebuilds dist/ when a source changed since the last build; several processes at once build it once. */
export async function ensureBuilt() {
  if (isFresh()) return;
  const lock = join(ROOT, 'dist.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 30_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    if (!isFresh()) await build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** What `npm pack` adds: `.d.ts` files (imports spelled `.js`) and the prebuilt workflow bundle. */
async function pack() {
  rmSync(DIST, { recursive: true, force: true });
  await build();
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0) throw new Error('tsc failed to write the declarations');
  const types = join(DIST, 'types');
  const visit = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (name.endsWith('.d.ts'))
        writeFileSync(
          path,
          readFileSync(path, 'utf8').replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2'),
        );
    }
  };
  visit(types);
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const { code } = await bundleWorkflowCode({
    workflowsPath: join(ROOT, 'workflows', 'index.ts'),
    workflowInterceptorModules: [join(ROOT, 'workflows', 'tracing.ts')],
  });
  writeFileSync(join(DIST, 'workflow-bundle.js'), code);
  console.log(`built ${relative(process.cwd(), DIST)}: JavaScript, declarations and the workflow bundle`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--pack')) await pack();
  else await build();
}
