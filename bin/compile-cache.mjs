// Keeps V8's compiled code of the CommonJS packages the CLI loads (Temporal's SDK, gRPC, protobufjs, rxjs: ~600
// files) in one file per installation under the user's cache, so a command does not parse and compile them again on
// every start.
// Node 22.1+ does this itself (module.enableCompileCache); on Node 20 the CommonJS loader's compile step is taken
// over for files under node_modules only, the way v8-compile-cache does it. The cache is written when the process
// exits, from the code compiled by then (functions compiled lazily during the command included), and only when a
// file was missing from it; a file that changed (size or mtime) is compiled afresh, and leaves the cache at its next
// write. It also keeps where a package's requires resolved, while npm's lock file in node_modules is unchanged.
// LLM_EVALS_COMPILE_CACHE=0 turns it off.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** The installed package this file belongs to: each installation (each project's node_modules) has its own cache. */
const INSTALL = dirname(dirname(fileURLToPath(import.meta.url)));

/** A cache file no command has written for this long belongs to an installation or a Node that is gone. */
const UNUSED_MS = 30 * 24 * 3600 * 1000;

/** The folder the cache goes to: `compile/` under the CLI's cache root, found as src/dirs.ts defaultCacheRoot does. */
function cacheDir(env) {
  const xdg = env.XDG_CACHE_HOME;
  const root = xdg && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), '.cache');
  return join(root, 'llm-evals', 'compile');
}

/**
 * Code compiled under other V8 flags, or another Node, is refused by V8: one cache file per Node and flags, and per
 * installation, so that one holds only the packages of one node_modules (one file for all grew with every project and
 * made every start read all of them).
 */
function cacheFile(env) {
  const key = createHash('sha256')
    .update(
      `${process.version} ${process.arch} ${process.execArgv.join(' ')} ${INSTALL} ${env.NODE_PATH ?? ''}`,
    )
    .digest('hex')
    .slice(0, 16);
  return join(cacheDir(env), `${key}.bin`);
}

/** The index's entry that holds resolutions, not a file (no path starts with a NUL). */
const RESOLVED = '\0resolved';

/**
 * The cache's file: a 4-byte index length, the index (JSON: file → [stamp, offset, length], and under RESOLVED the
 * resolutions with the lock file stamp they hold for, absent from a cache written before them), then the code.
 */
function readCache(file) {
  try {
    const data = readFileSync(file);
    const size = data.readUInt32LE(0);
    const { [RESOLVED]: resolved, ...index } = JSON.parse(data.subarray(4, 4 + size).toString('utf8'));
    const body = 4 + size;
    const files = new Map(
      Object.entries(index).map(([name, [stamp, offset, length]]) => [
        name,
        { stamp, data: data.subarray(body + offset, body + offset + length) },
      ]),
    );
    return { files, resolved };
  } catch {
    return { files: new Map() };
  }
}

function writeCache(file, entries, resolved) {
  const index = { [RESOLVED]: resolved };
  const parts = [];
  let offset = 0;
  for (const [name, { stamp, data }] of entries) {
    index[name] = [stamp, offset, data.length];
    parts.push(data);
    offset += data.length;
  }
  const head = Buffer.from(JSON.stringify(index), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length, 0);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, Buffer.concat([size, head, ...parts]));
  renameSync(temp, file);
}

/**
 * npm rewrites `node_modules/.package-lock.json` on every install, update or removal: while its stamp is the one the
 * resolutions were made under, the packages they found are where they were. Without it (another package manager),
 * nothing is resolved from the cache.
 */
function lockStamp() {
  const modules =
    basename(dirname(INSTALL)) === 'node_modules' ? dirname(INSTALL) : join(INSTALL, 'node_modules');
  return stampOf(join(modules, '.package-lock.json'));
}

/** Removes the cache files not written for a month: those of installations, Node versions or flags no longer used. */
function forgetUnused(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > UNUSED_MS) rmSync(path, { force: true });
  }
}

/** The file's identity for the cache: a package updated in place has another size or mtime. */
function stampOf(filename) {
  const stat = statSync(filename, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : undefined;
}

/** The `require` a module's code is given, as Node's loader makes it. */
function requireFor(module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

export function installCompileCache(env = process.env) {
  if (env.LLM_EVALS_COMPILE_CACHE === '0') return;
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache(cacheDir(env));
    return;
  }
  const file = cacheFile(env);
  const { files: cached, resolved } = readCache(file);
  /** The scripts compiled in this process, to write their code when one was not in the cache. */
  const compiled = new Map();
  let missing = false;
  // Resolving a `require` walks folders and reads package.json files (~100 ms of a command's start for Temporal's
  // SDK): a package's requires from a package resolve as they did while npm has not changed node_modules.
  const lock = lockStamp();
  const resolutions = lock !== undefined && resolved?.lock === lock ? resolved.map : {};
  /** The stamps of files found this process, taken once: a file is resolved from several packages, then compiled. */
  const stamps = new Map();
  const stamp = (filename) => {
    let known = stamps.get(filename);
    if (known === undefined) {
      known = stampOf(filename);
      if (known !== undefined) stamps.set(filename, known);
    }
    return known;
  };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, isMain, options) {
    const from = parent?.filename;
    if (
      lock === undefined ||
      options ||
      isMain ||
      !from?.includes('/node_modules/') ||
      Module.isBuiltin(request)
    ) {
      return resolve.call(this, request, parent, isMain, options);
    }
    const key = `${dirname(from)}\0${request}`;
    const known = resolutions[key];
    if (known !== undefined && stamp(known) !== undefined) return known;
    const found = resolve.call(this, request, parent, isMain, options);
    if (found.includes('/node_modules/')) {
      resolutions[key] = found;
      missing = true;
    }
    return found;
  };
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename, format) {
    // Only plain CommonJS under node_modules; a file that imports ES modules keeps Node's own loader.
    if (format === 'module' || !filename.includes('/node_modules/') || content.includes('import(')) {
      return compile.call(this, content, filename, format);
    }
    const current = stamp(filename);
    const hit = current !== undefined ? cached.get(filename) : undefined;
    const script = new vm.Script(Module.wrap(content), {
      filename,
      ...(hit?.stamp === current ? { cachedData: hit.data } : {}),
    });
    if (current !== undefined) {
      compiled.set(filename, { stamp: current, script });
      if (hit?.stamp !== current || script.cachedDataRejected) missing = true;
    }
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (!missing) return;
    try {
      // What other commands compiled stays while its file is as it was; a package removed or updated leaves.
      const entries = new Map(
        [...cached].filter(([name, { stamp }]) => !compiled.has(name) && stampOf(name) === stamp),
      );
      for (const [name, { stamp, script }] of compiled) {
        entries.set(name, { stamp, data: script.createCachedData() });
      }
      writeCache(file, entries, { lock, map: resolutions });
      forgetUnused(dirname(file));
    } catch {
      // A cache that cannot be written costs the next start its compile time, nothing else.
    }
  });
}
