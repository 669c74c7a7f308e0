// What the benches that run the real `llm-evals` on a toy-suite folder share: the numbered cases they write, and the
// command run as a whole process, timed.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const bin = join(resolve(import.meta.dirname, '..'), 'bin', 'llm-evals.mjs');

/**
 * Writes a toy suite under `suiteDir`: its lineup (the toy adapter and scorer, then `lines`) and `n` cases (dataset
 * `d`, variant `v`): `case i` in, `{animal, name}` out.
 */
export function writeToySuite(suiteDir: string, lines: readonly string[], n: number): void {
  const evals = join(suiteDir, 'evals');
  mkdirSync(evals, { recursive: true });
  const lineup = [
    `import: ${join(resolve(import.meta.dirname, '..'), 'examples/toy-suite/lib/toy-suite.ts')}`,
    'adapter: ToyAdapter',
    'scorer: ToyScorer',
    'request_types: [prompt]',
    ...lines,
    '',
  ];
  writeFileSync(join(evals, '.llm-evals.config.yml'), lineup.join('\n'));
  for (let i = 0; i < n; i++) {
    const folder = join(evals, 'datasets', 'd', 'cases', 'v', String(i).padStart(5, '0'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'input.txt'), `case ${i}\n`);
    writeFileSync(join(folder, 'expected.json'), JSON.stringify({ animal: 'case', name: `v/${i}` }));
  }
}

/** Runs `llm-evals args` in `cwd` and times it; throws with the end of its stderr when it does not exit 0. */
export async function runToyCli(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`llm-evals ${args.join(' ')} exited ${code}:\n${stderr.slice(-4000)}`);
  return { seconds, stdout, stderr };
}
