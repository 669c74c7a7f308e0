import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { TempDirs, TOY_SUITE } from '../helpers/suite-dir.ts';
import { ChatServer } from '../providers/chat-server.ts';

// A local stand-in for OpenRouter that lists no model: a dry run's checks reach it, and never the network.
const openrouter = new ChatServer([]);
const dirs = new TempDirs();
let openrouterUrl = '';
beforeAll(async () => {
  openrouterUrl = await openrouter.start();
});
afterAll(async () => {
  await openrouter.stop();
  dirs.removeAll();
});

/** The model ids in the rows of a dry run's matrix. */
const modelsIn = (stdout: string) => [
  ...new Set([...stdout.matchAll(/│ (fake\/\w+|openai\/[\w.-]+) +│/g)].map((m) => m[1])),
];

describe.concurrent('-m, -d and -c through the real CLI (C5)', () => {
  it.each<[string, string[], string[]]>([
    ['a lineup id', ['fake/parrot'], ['fake/parrot']],
    ['a bare id', ['echo'], ['fake/echo']],
    ['two ids, bare and full', ['parrot', 'fake/echo'], ['fake/echo', 'fake/parrot']],
    ['a provider/model id outside the lineup', ['openai/gpt-4.1-mini'], ['openai/gpt-4.1-mini']],
  ])('run -m %s plans those models', async (_, models, want) => {
    // A dry run makes the run's checks: OpenRouter's key must be set, and its address accept a connection.
    const env = {
      OPENROUTER_API_KEY: 'unused',
      OPENROUTER_BASE_URL: openrouterUrl,
      XDG_CACHE_HOME: dirs.os(),
    };
    const result = await runCli(['run', '-n', '-m', ...models], { cwd: TOY_SUITE, env });
    expect(result.code, result.stderr).toBe(0);
    expect(modelsIn(result.stdout).sort()).toEqual(want);
  });

  it.each<[string, string, string]>([
    ['a typo', 'fake/ech', 'did you mean "fake/echo"?'],
    ['a bare typo', 'parot', 'did you mean "fake/parrot"?'],
    ['nothing near', 'zzz', '(the lineup has "fake/echo", "fake/parrot", "typesafe/jev-latest")'],
  ])('run -m with %s: exit 2 before any call, one message', async (_, model, hint) => {
    const result = await runCli(['run', '-m', model], { cwd: TOY_SUITE });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const said = result.stderr.split('\n').filter((l) => l && !/^[┌│└]/.test(l));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`-m: no model "${model}"`);
    expect(said[0]).toContain(hint);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it.each<[string, string[], number]>([
    ['-d with a comma list', ['-d', 'animals,colors'], 8],
    ['-d repeated', ['-d', 'animals', '-d', 'colors'], 8],
    ['-c with a comma list', ['-c', 'clear/001,tricky'], 9],
    ['-d and -c together', ['-d', 'colors', '-c', 'tricky'], 2],
  ])('cases %s', async (_, flags, count) => {
    const result = await runCli(['cases', ...flags], { cwd: TOY_SUITE });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${count} cases in `);
  });
});
