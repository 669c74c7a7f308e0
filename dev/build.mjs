// Builds the JavaScript the CLI and the library run from: one esbuild pass over our TypeScript, split into shared
// chunks so the CLI and a suite's `import 'llm-evals'` share one copy of each module; packages stay external.
// In a checkout, bin/llm-evals.mjs calls ensureBuilt() on every start: it rebuilds only when a source is newer than
// the last build (a few milliseconds to check, a quarter second to build). `npm pack` runs it with --pack, which also
// writes the type declarations, the prebuilt workflow bundle that an installed package uses instead of webpack, and
// the view's browser script.
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
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.built');
const SOURCES = ['cli.ts', 'worker.ts', 'package.json', 'src', 'activities', 'workflows', 'temporal'];
/**
 * The entry points and the names they get in dist/: the CLI, the library, its testing fakes, the worker, and the
 * relaunch the bin asks for before it loads the CLI.
 */
export const ENTRIES = {
  cli: 'cli.ts',
  index: 'src/index.ts',
  testing: 'src/api/testing.ts',
  worker: 'worker.ts',
  lean: 'src/cli/lean.ts',
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

/** Whether Node runs `file` as CommonJS: by its extension, else by the `type` of the package it belongs to. */
function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

/** The names a CommonJS package exports that a module can re-export: what loading it in this process shows. */
function exportNames(spec) {
  const loaded = createRequire(join(ROOT, 'package.json'))(spec);
  return Object.keys(loaded).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
}

/**
 * An ESM file that imports a CommonJS package makes Node read and lex that package's source (and every file it
 * re-exports) for its export names before running it: Temporal's SDK, gRPC and protobufjs, ~100 ms of each start.
 * The built files take such packages with `require` instead (a `require` made at the top of each file), which runs the
 * same CommonJS code, lexes nothing and is served from the compile cache. A package that ships both builds (zod,
 * tinyglobby, openai) is taken as CommonJS too, for the same reason. ESM-only packages are imported as they were.
 */
const requireCommonJs = {
  name: 'require-commonjs',
  setup(b) {
    const resolving = Symbol('resolving');
    b.onResolve({ filter: /^[^./]/ }, async ({ path, kind, resolveDir, pluginData }) => {
      if (pluginData === resolving) return undefined;
      const external = { path, external: true };
      if (kind !== 'import-statement' && kind !== 'dynamic-import') return external;
      if (path.startsWith('node:') || builtinModules.includes(path)) return external;
      // The file this import would load, as esbuild resolves it for Node (the package's `import` condition first).
      const found = await b.resolve(path, { kind, resolveDir, pluginData: resolving });
      if (found.errors.length > 0) return external;
      if (!isCommonJs(found.path)) {
        const required = await b.resolve(path, { kind: 'require-call', resolveDir, pluginData: resolving });
        if (required.errors.length > 0 || !isCommonJs(required.path)) return external;
      }
      return { path, namespace: kind === 'dynamic-import' ? 'import-commonjs' : 'require-commonjs' };
    });
    // A static import reads the module's properties where they are used; a dynamic import resolves to a namespace,
    // so its module names what the package exports, as Node's own lexer would.
    b.onLoad({ filter: /.*/, namespace: 'require-commonjs' }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path)});`,
      loader: 'js',
      resolveDir: ROOT,
    }));
    b.onLoad({ filter: /.*/, namespace: 'import-commonjs' }, ({ path }) => ({
      contents: [
        `const m = require(${JSON.stringify(path)});`,
        'export default m;',
        `export const { ${exportNames(path).join(', ')} } = m;`,
      ].join('\n'),
      loader: 'js',
      resolveDir: ROOT,
    }));
  },
};

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
    target: 'node22',
    sourcemap: 'linked',
    outdir: out,
    logLevel: 'warning',
    plugins: [requireCommonJs],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  // The failure converter every client and worker requires by path (src/client/connect.ts): CommonJS, which any Node
  // requires, its SDK left in node_modules.
  await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [{ in: 'src/client/failure-converter.ts', out: 'failure-converter' }],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    outExtension: { '.js': '.cjs' },
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
  // The bundle a checkout's worker makes and caches, made the same way (src/client/bundle.ts, through tsx).
  const { tsImport } = await import('tsx/esm/api');
  const { buildWorkflowBundle } = await tsImport('../src/client/bundle.ts', import.meta.url);
  writeFileSync(
    join(DIST, 'workflow-bundle.js'),
    await buildWorkflowBundle(join(ROOT, 'workflows', 'index.ts')),
  );
  // The view's browser script, bundled as the view bundles it in a checkout (src/view/script.ts).
  const { bundleViewScript } = await tsImport('../src/view/script.ts', import.meta.url);
  writeFileSync(join(DIST, 'view.js'), await bundleViewScript());
  console.log(
    `built ${relative(process.cwd(), DIST)}: JavaScript, declarations, the workflow bundle and the view's script`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--pack')) await pack();
  else await build();
}
