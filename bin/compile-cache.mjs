// Keeps V8's compiled code of the CommonJS packages the CLI loads (Temporal's SDK, gRPC, protobufjs, rxjs: ~600
// files) in one file under the user's cache, so a command does not parse and compile them again on every start.
// Node 22.1+ does this itself (module.enableCompileCache); on Node 20 the CommonJS loader's compile step is taken
// over for files under node_modules only, the way v8-compile-cache does it. The cache is written when the process
// exits, from the code compiled by then (functions compiled lazily during the command included), and only when a
// file was missing from it; a file that changed (size or mtime) is compiled afresh. LLM_EVALS_COMPILE_CACHE=0 turns
// it off.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import process from 'node:process';
import vm from 'node:vm';

/** The folder the cache goes to: `compile/` under the CLI's cache root, found as src/dirs.ts defaultCacheRoot does. */
function cacheDir(env) {
  const xdg = env.XDG_CACHE_HOME;
  const root = xdg && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), '.cache');
  return join(root, 'llm-evals', 'compile');
}

/** Code compiled under other V8 flags, or another Node, is refused by V8: one cache file per Node and flags. */
function cacheFile(env) {
  const key = createHash('sha256')
    .update(`${process.version} ${process.arch} ${process.execArgv.join(' ')}`)
    .digest('hex')
    .slice(0, 16);
  return join(cacheDir(env), `${key}.bin`);
}

/** The cache's file: a 4-byte index length, the index (JSON: file → [stamp, offset, length]), then the code. */
function readCache(file) {
  try {
    const data = readFileSync(file);
    const size = data.readUInt32LE(0);
    const index = JSON.parse(data.subarray(4, 4 + size).toString('utf8'));
    const body = 4 + size;
    return new Map(
      Object.entries(index).map(([name, [stamp, offset, length]]) => [
        name,
        { stamp, data: data.subarray(body + offset, body + offset + length) },
      ]),
    );
  } catch {
    return new Map();
  }
}

function writeCache(file, entries) {
  const index = {};
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
  const cached = readCache(file);
  /** The scripts compiled in this process, to write their code when one was not in the cache. */
  const compiled = new Map();
  let missing = false;
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename, format) {
    // Only plain CommonJS under node_modules; a file that imports ES modules keeps Node's own loader.
    if (format === 'module' || !filename.includes('/node_modules/') || content.includes('import(')) {
      return compile.call(this, content, filename, format);
    }
    const stamp = stampOf(filename);
    const hit = stamp !== undefined ? cached.get(filename) : undefined;
    const script = new vm.Script(Module.wrap(content), {
      filename,
      ...(hit?.stamp === stamp ? { cachedData: hit.data } : {}),
    });
    if (stamp !== undefined) {
      compiled.set(filename, { stamp, script });
      if (hit?.stamp !== stamp || script.cachedDataRejected) missing = true;
    }
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (!missing) return;
    try {
      const entries = new Map(cached);
      for (const [name, { stamp, script }] of compiled) {
        entries.set(name, { stamp, data: script.createCachedData() });
      }
      writeCache(file, entries);
    } catch {
      // A cache that cannot be written costs the next start its compile time, nothing else.
    }
  });
}
