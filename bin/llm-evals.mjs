#!/usr/bin/env node
// The installed `llm-evals`/`evals` command: TypeScript (ours and the suite's helper) loads through tsx, no build step.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli.ts');
const code = await main(process.argv.slice(2));
// Exit now: a native Temporal runtime or an idle connection must not keep a finished command alive.
process.exit(code);
