import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Message } from 'esbuild';
import { defaultCacheRoot } from '../dirs.ts';

const TYPESCRIPT = /\.[cm]?tsx?$/;

/** What a compiled module was made from: each input file with its size and time, to tell when it must be redone. */
interface Made {
  inputs: [path: string, mtimeMs: number, size: number][];
}

const unchanged = ({ inputs }: Made) =>
  inputs.every(([path, mtimeMs, size]) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat !== undefined && stat.mtimeMs === mtimeMs && stat.size === size;
  });

/** esbuild's failure as one line per problem: where, and what. */
function oneLine(error: unknown): string {
  const problems = (error as { errors?: Message[] }).errors;
  if (!problems?.length) return error instanceof Error ? error.message : String(error);
  return problems
    .map(({ text, location: at }) =>
      at ? `${join(process.cwd(), at.file)}:${at.line}:${at.column + 1}: ${text}` : text,
    )
    .join('; ');
}

/**
 * Compiles a suite's TypeScript module, with the local files it imports, into one JavaScript file in the cache;
 * packages stay imports, resolved from where the source is (so `llm-evals` and the project's own dependencies are the
 * ones it would load), and each file keeps its own `import.meta` paths.
 */
async function compile(file: string, out: string): Promise<void> {
  if (!existsSync(file)) throw new Error(`Cannot find module '${file}'`);
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [file],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outfile: out,
    write: false,
    metafile: true,
    sourcemap: 'inline',
    logLevel: 'silent',
    plugins: [
      {
        name: 'llm-evals-suite',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === 'resolving' || args.path.startsWith('node:')) return undefined;
            const found = await build.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              importer: args.importer,
              pluginData: 'resolving',
            });
            if (found.errors.length > 0) return { errors: found.errors };
            const builtin = !found.path.startsWith('/') && !/^[A-Za-z]:/.test(found.path);
            return { path: builtin ? args.path : pathToFileURL(found.path).href, external: true };
          });
          build.onLoad({ filter: TYPESCRIPT }, (args) => {
            const source = readFileSync(args.path, 'utf8')
              .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
              .replaceAll('import.meta.filename', JSON.stringify(args.path))
              .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
            return { contents: source, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
          });
        },
      },
    ],
  }).catch((error: unknown) => {
    throw new Error(oneLine(error), { cause: error });
  });
  const made: Made = {
    inputs: Object.keys(result.metafile.inputs).map((input) => {
      const path = join(process.cwd(), input);
      const stat = statSync(path);
      return [path, stat.mtimeMs, stat.size];
    }),
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(`${out}.${process.pid}.tmp`, result.outputFiles[0]!.contents);
  renameSync(`${out}.${process.pid}.tmp`, out);
  writeFileSync(`${out}.json`, JSON.stringify(made));
}

/**
 * Imports one of the suite's own modules (its helper, or a module its lineup names): JavaScript natively, TypeScript
 * compiled once per change into the cache and then imported natively too, so a suite needs no build step and a warm
 * start pays a few file checks, not a TypeScript loader for every module the suite pulls in.
 */
export async function importModule(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, unknown>> {
  if (!url.startsWith('file:') || !TYPESCRIPT.test(new URL(url).pathname)) {
    return (await import(url)) as Record<string, unknown>;
  }
  const file = fileURLToPath(url);
  const key = createHash('sha256').update(file).digest('hex').slice(0, 24);
  const out = join(defaultCacheRoot(env), 'suites', `${key}.mjs`);
  const made = existsSync(`${out}.json`)
    ? (JSON.parse(readFileSync(`${out}.json`, 'utf8')) as Made)
    : undefined;
  if (!made || !existsSync(out) || !unchanged(made)) await compile(file, out);
  const version = statSync(out).mtimeMs;
  return (await import(`${pathToFileURL(out).href}?v=${version}`)) as Record<string, unknown>;
}
