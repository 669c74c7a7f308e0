import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { editFile, TempDirs } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const CONFIG = 'evals/.llm-evals.config.yml';
const STACK = /^\s+at /m;

/** The toy suite's lineup with the fake models' section taken out, leaving the refused typesafe one. */
const withoutFake = (t: string) => t.replace(/^fake:[\s\S]*?(?=^typesafe:)/m, '');

const CASES: [string, ((t: string) => string) | undefined, string[], string, RegExp][] = [
  // [what, edit of the lineup, command, key named, what the message says]
  [
    'an endpoint named local',
    (t) => `${t}\nlocal:\n  base_url: http://127.0.0.1:11434/v1\n  models: [llama3.2]\n`,
    ['compare', '-n'],
    'local',
    /"local" is reserved for a tracker \(local, logfire, braintrust\), but this section has models, base_url; .*"local-llm"/,
  ],
  [
    'a direct provider section named logfire',
    (t) => `${t}\nlogfire:\n  models: [fast]\n`,
    ['cases'],
    'logfire',
    /"logfire" is reserved for a tracker .* has models;/,
  ],
  [
    'a router section named braintrust',
    (t) => `${t}\nbraintrust:\n  vendors: { openai: { models: [gpt-4.1-mini] } }\n`,
    ['verify'],
    'braintrust',
    /"braintrust" is reserved for a tracker .* has vendors;/,
  ],
  [
    'a lineup whose every model is refused',
    withoutFake,
    ['compare', '-n'],
    '',
    /no contender: the lineup has only refused models \(typesafe\/jev-latest refused: needs typesafe; this suite produces prompt\)/,
  ],
  [
    'a lineup whose every model is refused, run in full',
    withoutFake,
    ['compare', '--no-open'],
    '',
    /no contender: the lineup has only refused models/,
  ],
  [
    'a lineup with no model at all',
    (t) => withoutFake(t).replace(/^typesafe:[\s\S]*$/m, ''),
    ['compare', '-n'],
    '',
    /no contender: the lineup lists no model; add a provider section with models/,
  ],
  [
    'a provider section with an empty model list',
    (t) => withoutFake(t).replace(/^typesafe:[\s\S]*$/m, 'fake:\n  models: []\n'),
    ['start'],
    '',
    /no contender: the lineup lists no model/,
  ],
  [
    'only refused models named with -m',
    undefined,
    ['run', '-n', '-m', 'typesafe/jev-latest'],
    '-m',
    /no contender: -m typesafe\/jev-latest has only refused models/,
  ],
];

describe.concurrent('reserved names and empty lineups through the real CLI', () => {
  it.each(CASES)('%s: exit 2 naming the file and why', async (_, edit, args, key, message) => {
    const copy = dirs.toySuite();
    if (edit) editFile(join(copy, CONFIG), edit);
    const result = await runCli(args, { cwd: copy });
    expect(result.code, result.stderr).toBe(2);
    const said = result.stderr.split('\n').filter((l) => l.startsWith('llm-evals: '));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`llm-evals: ${join(copy, CONFIG)}: ${key ? `${key}: ` : ''}`);
    expect(said[0]).toMatch(message);
    expect(result.stderr).not.toMatch(STACK);
    expect(result.stderr).not.toContain('run ');
  });

  it('still reads a tracker section that has only tracker keys', async () => {
    const copy = dirs.toySuite();
    editFile(join(copy, CONFIG), (t) => `${t}\nlogfire:\n  include_replies: true\n`);
    const result = await runCli(['compare', '-n'], { cwd: copy });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('fake/echo');
  });
});
