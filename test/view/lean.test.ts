import { describe, expect, it } from 'vitest';
import { leanArgs, relaunchLean, VIEW_V8_FLAGS, type Relaunchable } from '../../src/view/lean.ts';

const BIN = '/p/bin/llm-evals.mjs';

describe('the view relaunched with a small heap', () => {
  it.each<[string, string[], string[] | undefined]>([
    ['plain node', [], ['/node', ...VIEW_V8_FLAGS, BIN, 'view', '--port', '0']],
    [
      "node's own flags kept, after ours",
      ['--enable-source-maps'],
      ['/node', ...VIEW_V8_FLAGS, '--enable-source-maps', BIN, 'view', '--port', '0'],
    ],
    ['already relaunched', [...VIEW_V8_FLAGS], undefined],
    ["the user's own young generation", ['--max-semi-space-size=16'], undefined],
  ])('leanArgs: %s', (_, execArgv, expected) => {
    expect(leanArgs({ execPath: '/node', execArgv, argv: ['/node', BIN, 'view', '--port', '0'] })).toEqual(
      expected,
    );
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
    expect(calls).toEqual([['/node', ['/node', ...VIEW_V8_FLAGS, BIN, 'view'], { A: '1' }]]);
    const { execve: _, ...without } = proc;
    expect(() => relaunchLean(without)).not.toThrow();
  });
});
