import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.ts';
import { writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs, TOY_SUITE } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

let dir: string;
let script: string;
let shims: string;

beforeAll(async () => {
  const result = await runCli(['completion', 'bash'], { cwd: TOY_SUITE });
  expect(result.code).toBe(0);
  dir = dirs.os('llm-evals-completion-');
  script = join(dir, 'llm-evals.bash');
  writeFileSync(script, result.stdout);
  // The script calls back whatever the user typed first: put both installed names on PATH.
  shims = join(dir, 'bin');
  mkdirSync(shims);
  for (const name of ['llm-evals', 'evals']) {
    writeFileSync(join(shims, name), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(shims, name), 0o755);
  }
}, 60_000);

/** Sources the script in a real bash, sets COMP_WORDS to `words` (the last is under the cursor) and reads COMPREPLY. */
function complete(words: readonly string[], cwd = TOY_SUITE, env: NodeJS.ProcessEnv = {}): string[] {
  const program = [
    'source "$1"',
    'shift',
    'COMP_WORDS=("$@")',
    'COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))',
    'COMP_LINE="${COMP_WORDS[*]}"',
    '_llm_evals',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', script, ...words], {
    cwd,
    env: { ...shellEnv(), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter(Boolean);
}

/** The environment the shells run in: the shims first on PATH, and no helper given by the caller's own. */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${shims}:${process.env.PATH}`, NO_COLOR: '1' };
  delete env.LLM_EVALS_HELPER;
  return env;
}

describe('llm-evals completion bash (C8)', () => {
  it('is valid bash', () => {
    expect(spawnSync('bash', ['-n', script]).status).toBe(0);
  });

  it.each<[string, string[], string[]]>([
    ['commands', ['llm-evals', 'ca'], ['cases', 'cancel', 'cache']],
    ['new commands', ['llm-evals', 'upg'], ['upgrade-config']],
    ['no hidden command', ['llm-evals', '__'], []],
    ['flags', ['llm-evals', 'compare', '--dry'], ['--dry-run']],
    ['the other installed name', ['evals', 'verify', '--no-s'], ['--no-search']],
    [
      'choices of a flag',
      ['llm-evals', 'compare', '--format', ''],
      ['tui', 'html', 'json', 'markdown', 'junit'],
    ],
    ['choices of an argument', ['llm-evals', 'server', 's'], ['start', 'stop', 'status']],
    ['shells', ['llm-evals', 'completion', ''], ['bash', 'zsh']],
    ['a flag after an optional value', ['llm-evals', 'compare', '-o', '--dr'], ['--dry-run']],
    ['no run ids yet', ['llm-evals', 'status', ''], []],
    [
      'the subcommands of schedule',
      ['llm-evals', 'schedule', ''],
      ['create', 'list', 'show', 'pause', 'unpause', 'trigger', 'delete', 'backfill', 'help'],
    ],
    ['a subcommand by its start', ['llm-evals', 'schedule', 'p'], ['pause']],
    ["a subcommand's flags", ['llm-evals', 'schedule', 'pause', '--not'], ['--note']],
    [
      "a subcommand's choices",
      ['llm-evals', 'schedule', 'create', 'nightly', '--overlap', 'buffer'],
      ['buffer-one', 'buffer-all'],
    ],
    ['no schedules yet', ['llm-evals', 'schedule', 'show', ''], []],
  ])('static: %s', (_, words, want) => {
    expect(complete(words)).toEqual(want);
  });

  it.each<[string, string[], string[]]>([
    ['datasets after -d', ['llm-evals', 'compare', '-d', ''], ['animals', 'capitals', 'colors', 'weather']],
    ['the last item of a list', ['llm-evals', 'cases', '-d', 'animals,co'], ['animals,colors']],
    ['--dataset=', ['llm-evals', 'compare', '--dataset', '=', 'co'], ['colors']],
    ['variants and cases after -c', ['llm-evals', 'run', '-c', 'tr'], ['tricky', 'tricky/001', 'tricky/002']],
    ['model ids after -m', ['llm-evals', 'run', '-m', ''], ['fake/echo', 'fake/parrot']],
    ['more model ids after one', ['llm-evals', 'start', '-m', 'fake/echo', 'fake/p'], ['fake/parrot']],
  ])('from the toy suite: %s', (_, words, want) => {
    expect(complete(words)).toEqual(want);
  });

  it('finds the suite named by -C from elsewhere, and offers nothing when there is none', () => {
    const elsewhere = dirs.os();
    expect(complete(['llm-evals', 'compare', '-d', ''], elsewhere)).toEqual([]);
    const config = join(TOY_SUITE, 'evals/.llm-evals.config.yml');
    expect(complete(['llm-evals', 'compare', '-C', config, '-d', ''], elsewhere)).toEqual([
      'animals',
      'capitals',
      'colors',
      'weather',
    ]);
  });

  it('run ids from Temporal for status, report, rescore and the rest', async () => {
    const project = dirs.inRepo('completion-runs-');
    writeRecordingSuite(project, 2);
    const env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `completion-${randomUUID()}` };
    const start = await runCli(['start', '--no-worker', '--no-verify'], {
      cwd: project,
      env: { ...env, RECORDING_API_KEY: 'k' },
    });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    try {
      expect(complete(['llm-evals', 'status', ''], project, env)).toEqual([runId]);
      expect(complete(['llm-evals', 'rescore', runId.slice(0, 8)], project, env)).toEqual([runId]);
      expect(complete(['evals', 'cancel', 'x'], project, env)).toEqual([]);
      // diff takes two runs: each is offered the run ids.
      expect(complete(['llm-evals', 'diff', ''], project, env)).toEqual([runId]);
      expect(complete(['llm-evals', 'diff', runId, ''], project, env)).toEqual([runId]);
      // Another project's runs are not offered.
      expect(complete(['llm-evals', 'status', ''], TOY_SUITE, env)).not.toContain(runId);
    } finally {
      await runCli(['cancel', runId], { cwd: project, env });
    }
  }, 120_000);

  it('schedule names from Temporal for schedule show, pause, trigger and the rest, not for create', async () => {
    const project = dirs.inRepo('completion-schedules-');
    writeRecordingSuite(project, 2);
    const env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `completion-${randomUUID()}` };
    const name = `nightly-${randomUUID().slice(0, 8)}`;
    const created = await runCli(['schedule', 'create', name, '--every', '1d', '--no-verify'], {
      cwd: project,
      env: { ...env, RECORDING_API_KEY: 'k' },
    });
    expect(created.code, created.stderr).toBe(0);
    try {
      expect(complete(['llm-evals', 'schedule', 'show', ''], project, env)).toEqual([name]);
      expect(complete(['evals', 'schedule', 'trigger', 'night'], project, env)).toEqual([name]);
      expect(complete(['llm-evals', 'schedule', 'pause', '--note', 'x', ''], project, env)).toEqual([name]);
      expect(complete(['llm-evals', 'schedule', 'create', ''], project, env)).toEqual([]);
      // Another project's schedules are not offered.
      expect(complete(['llm-evals', 'schedule', 'show', ''], TOY_SUITE, env)).not.toContain(name);
    } finally {
      await runCli(['schedule', 'delete', name], { cwd: project, env });
    }
  }, 120_000);

  it('completes every flag `compare --help` lists', async () => {
    const help = await runCli(['compare', '--help'], { cwd: TOY_SUITE });
    const listed = [...help.stdout.matchAll(/(?<=^ {2}|, )(--?[A-Za-z][\w-]*)/gm)].map((m) => m[1]!);
    expect(listed).toContain('--dry-run');
    expect(complete(['llm-evals', 'compare', '-']).sort()).toEqual([...new Set(listed)].sort());
  });
});

/**
 * Types `$3` and Tab into an interactive zsh on a pseudo-terminal (zpty), with the completion script on `$fpath`;
 * every match compadd is given goes to `$2`, and `$2.done` appears once Tab has been handled.
 */
const ZSH_DRIVER = `
zmodload zsh/zpty
local dir=$1 out=$2 input=$3 i
zpty z env TERM=dumb zsh -f -i
zpty -w z "PS1='> '; fpath=($dir \\$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "compadd() { local -a hits; builtin compadd -O hits \\"\\$@\\"; (( \\$#hits )) && print -rl -- \\$hits >> \${(q)out}; builtin compadd \\"\\$@\\" }"
zpty -w z "tab() { zle complete-word; : >> \${(q)out}.done }; zle -N tab; bindkey '^I' tab"
zpty -w -n z "$input"$'\\t'
for (( i = 0; i < 600; i++ )); do [[ -e $out.done ]] && break; sleep 0.1; done
zpty -d z
[[ -e $out.done ]]
`;

const ZSH = '/usr/bin/zsh';

describe.skipIf(!existsSync(ZSH))('llm-evals completion zsh (C8)', () => {
  let fpath: string;
  let calls = 0;

  beforeAll(async () => {
    const result = await runCli(['completion', 'zsh'], { cwd: TOY_SUITE });
    expect(result.code).toBe(0);
    fpath = join(dir, 'zsh');
    mkdirSync(fpath);
    // The name zsh autoloads it by, as the script's header says.
    writeFileSync(join(fpath, '_llm-evals'), result.stdout);
  }, 60_000);

  /** The matches zsh offers for `line` + Tab, each once, sorted. */
  function zshComplete(line: string): string[] {
    const out = join(dir, `zsh-${++calls}.txt`);
    const run = spawnSync(ZSH, ['-f', '-c', ZSH_DRIVER, 'zsh', fpath, out, line], {
      cwd: TOY_SUITE,
      env: shellEnv(),
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const text = existsSync(out) ? readFileSync(out, 'utf8') : '';
    return [...new Set(text.split('\n').filter(Boolean))].sort();
  }

  it('is valid zsh', () => {
    expect(spawnSync(ZSH, ['-n', join(fpath, '_llm-evals')]).status).toBe(0);
  });

  it.each<[string, string, string[]]>([
    ['commands', 'llm-evals ca', ['cache', 'cancel', 'cases']],
    ['flags', 'llm-evals upgrade-config --d', ['--dry-run']],
    ['choices of a flag', 'llm-evals compare --format ', ['html', 'json', 'junit', 'markdown', 'tui']],
    ['datasets after -d', 'llm-evals compare -d ', ['animals', 'capitals', 'colors', 'weather']],
    // The match is the part after the comma; zsh keeps `animals,` in front of it.
    ['the last item of a list', 'evals cases -d animals,co', ['colors']],
    ['--dataset=', 'llm-evals compare --dataset=co', ['colors']],
    ['more model ids after one', 'llm-evals run -m fake/echo fake/p', ['fake/parrot']],
    ['a flag after the model ids', 'llm-evals start -m fake/echo --dr', ['--dry-run']],
  ])('%s', (_, line, want) => {
    expect(zshComplete(line)).toEqual(want);
  });
});
