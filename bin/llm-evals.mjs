#!/usr/bin/env node
// The installed `llm-evals`/`evals` command. It runs the built JavaScript in dist/; in a checkout of the repository it
// first rebuilds dist/ if a source changed (dev/build.mjs), so what runs is always what the sources say.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { installCompileCache } from './compile-cache.mjs';

installCompileCache();

const checkout = new URL('../dev/build.mjs', import.meta.url);
if (existsSync(checkout)) await (await import(checkout.href)).ensureBuilt();
// A command whose memory grows with the suite starts again at once with a smaller heap (src/cli/lean.ts).
(await import('../dist/lean.js')).relaunchLean();
const { main } = await import('../dist/cli.js');
const code = await main(process.argv.slice(2));
// Exit now — a native Temporal runtime or an idle connection must not keep a finished command alive — but only once
// what was written has left: a pipe takes a large report in 64 KB pieces.
const flushed = (stream) => new Promise((resolve) => stream.write('', resolve));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
