import { describe, expect, it } from 'vitest';
import {
  leanArgs,
  LEAN_V8_FLAGS,
  relaunchLean,
  SERVING_V8_FLAGS,
  SUITE_V8_FLAGS,
  type Relaunchable,
} from '../../src/cli/lean.ts';

const BIN = '/p/bin/llm-evals.mjs';

describe('a command that reads a whole suite or run, relaunched with a small heap', () => {
  it.each<[string, string[], string[], NodeJS.ProcessEnv, string[] | undefined]>([
    ['the view', [], ['view', '--port', '0'], {}, ['/node', ...LEAN_V8_FLAGS, BIN, 'view', '--port', '0']],
    ['cases, after an option', [], ['-v', 'cases'], {}, ['/node', ...SUITE_V8_FLAGS, BIN, '-v', 'cases']],
    ['start', [], ['start', '-m', 'x'], {}, ['/node', ...SUITE_V8_FLAGS, BIN, 'start', '-m', 'x']],
    ['verify', [], ['verify'], {}, ['/node', ...SUITE_V8_FLAGS, BIN, 'verify']],
    [
      'a worker',
      [],
      ['worker', '--until', 'r1'],
      {},
      ['/node', ...SERVING_V8_FLAGS, BIN, 'worker', '--until', 'r1'],
    ],
    ['compare, which serves its run in process', [], ['compare'], {}, undefined],
    ['report', [], ['report', 'r1'], {}, ['/node', ...SUITE_V8_FLAGS, BIN, 'report', 'r1']],
    [
      'resume, a worker ending in a report',
      [],
      ['resume', 'r1'],
      {},
      ['/node', ...SERVING_V8_FLAGS, BIN, 'resume', 'r1'],
    ],
    [
      "node's own flags kept, after ours",
      ['--enable-source-maps'],
      ['cases'],
      {},
      ['/node', ...SUITE_V8_FLAGS, '--enable-source-maps', BIN, 'cases'],
    ],
    ['a quick command (status)', [], ['status', 'r1'], {}, undefined],
    ['no command (help)', [], ['--help'], {}, undefined],
    ['already relaunched', [...SUITE_V8_FLAGS], ['cases'], {}, undefined],
    ["the user's own young generation", ['--max-semi-space-size=16'], ['cases'], {}, undefined],
    [
      "the user's own, in NODE_OPTIONS",
      [],
      ['cases'],
      { NODE_OPTIONS: '--max-semi-space-size=16' },
      undefined,
    ],
  ])('leanArgs: %s', (_, execArgv, args, env, expected) => {
    expect(leanArgs({ execPath: '/node', execArgv, argv: ['/node', BIN, ...args], env })).toEqual(expected);
  });

  it('relaunchLean calls execve with those arguments and the same environment, or returns without it', () => {
    const calls: unknown[][] = [];
    const proc: Relaunchable = {
      execPath: '/node',
      execArgv: [],
      argv: ['/node', BIN, 'view'],
      env: { A: '1' },
      execve: ((...args: unknown[]) => void calls.push(args)) as unknown as Relaunchable['execve'],
    };
    relaunchLean(proc);
    expect(calls).toEqual([['/node', ['/node', ...LEAN_V8_FLAGS, BIN, 'view'], { A: '1' }]]);
    const { execve: _, ...without } = proc;
    expect(() => relaunchLean(without)).not.toThrow();
  });
});
