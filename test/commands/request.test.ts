import { describe, expect, it } from 'vitest';
import type { RunFlags } from '../../src/cli/options.ts';
import { cacheModeOf, fireRequestOf, runRequestOf } from '../../src/commands/request.ts';
import { RunRequestSchema, type RunRequest } from '../../src/core/request.ts';
import { ConfigError } from '../../src/errors.ts';

/** Compare's flags as commander gives them with nothing typed: `--no-cache`, `--no-open`, `--no-verify` default on. */
const BARE: RunFlags = { cache: true, open: true, verify: true };

describe('the run request a command line asks for, parsed once at the command', () => {
  it.each<[string, RunFlags, string[] | undefined, (r: RunRequest) => unknown, unknown]>([
    [
      'nothing typed: the whole suite, the cache read',
      BARE,
      undefined,
      (r) => [r.selection, r.cache],
      [{ datasets: [], cases: [] }, 'read'],
    ],
    [
      '-d and -c select',
      { ...BARE, dataset: ['pets'], case: ['clear/003'] },
      undefined,
      (r) => r.selection,
      {
        datasets: ['pets'],
        cases: ['clear/003'],
      },
    ],
    [
      '--sample N with seed 0 unless --seed',
      { ...BARE, sample: 4 },
      undefined,
      (r) => r.selection.sample,
      {
        size: 4,
        seed: 0,
      },
    ],
    [
      '--sample N --seed S',
      { ...BARE, sample: 4, seed: 7 },
      undefined,
      (r) => r.selection.sample,
      {
        size: 4,
        seed: 7,
      },
    ],
    ['--seed alone samples nothing', { ...BARE, seed: 7 }, undefined, (r) => r.selection.sample, undefined],
    ['run -m: the models chosen', BARE, ['openai/gpt-4.1'], (r) => r.contenders.models, ['openai/gpt-4.1']],
    [
      'the settings that beat the lineup',
      {
        ...BARE,
        effort: ['low'],
        temperature: [0, 1],
        maxTokens: 64,
        repeat: 3,
        parallelism: 2,
        concurrency: 0,
      },
      undefined,
      (r) => r.contenders,
      { effort: ['low'], temperature: [0, 1], maxTokens: 64, repeat: 3, parallelism: 2, concurrency: 0 },
    ],
    ['--no-cache: every call made and kept', { ...BARE, cache: false }, undefined, (r) => r.cache, 'refresh'],
    ['--cache-only: nothing called', { ...BARE, cacheOnly: true }, undefined, (r) => r.cache, 'only'],
    ['a schedule without --cache: every call made', {}, undefined, (r) => r.cache, 'refresh'],
    ['--batch', { ...BARE, batch: true }, undefined, (r) => r.batch, true],
    ['-n', { ...BARE, dryRun: true }, undefined, (r) => r.dryRun, true],
    ['--no-verify: only the keys checked', { ...BARE, verify: false }, undefined, (r) => r.checks, false],
    ['--pairwise A B', { ...BARE, pairwise: ['a', 'b'] }, undefined, (r) => r.pairwise, ['a', 'b']],
    [
      'the tracker',
      { ...BARE, tracker: 'logfire', project: 'p' },
      undefined,
      (r) => r.tracking,
      {
        tracker: 'logfire',
        project: 'p',
      },
    ],
    [
      '--no-autosave',
      { ...BARE, autosave: false, tempDir: 't' },
      undefined,
      (r) => r.save,
      {
        autosave: false,
        tempDir: 't',
      },
    ],
    [
      'a report format and file',
      { ...BARE, format: 'html', output: 'r.html', open: false },
      undefined,
      (r) => r.show,
      { format: 'html', output: 'r.html', open: false, scores: false, allowFailures: false },
    ],
    [
      "the gate's format: its text goes to -o, the run's report as without it",
      { ...BARE, format: 'junit', output: 'gate.xml', baseline: 'R1', minDrop: 2, failOn: 'never' },
      undefined,
      (r) => [r.gate, r.show.format, r.show.output],
      [
        { baseline: 'R1', minDrop: 2, failOn: 'never', format: 'junit', output: 'gate.xml' },
        undefined,
        undefined,
      ],
    ],
    [
      '-n judges nothing: the gate is left out',
      { ...BARE, dryRun: true, format: 'markdown' },
      undefined,
      (r) => r.gate,
      {},
    ],
    ['-y', { ...BARE, yes: true }, undefined, (r) => r.yes, true],
    [
      '-C and -v: where the suite is',
      { ...BARE, config: 'a.yml', verbose: true },
      undefined,
      (r) => r.suite,
      {
        config: 'a.yml',
        verbose: true,
      },
    ],
    [
      'the flags as typed are recorded for the snapshot',
      { ...BARE, dataset: ['pets'], pairs: 'all' },
      undefined,
      (r) => r.recorded,
      { cache: true, open: true, verify: true, dataset: ['pets'], pairs: 'all' },
    ],
  ])('%s', (_, flags, models, part, expected) => {
    const request = runRequestOf(flags, models);
    expect(part(request)).toEqual(expected);
    // What a command makes is what the schema reads: a view or a schedule can build the same.
    expect(RunRequestSchema.parse(request)).toEqual(request);
  });

  it.each<[string, RunFlags, string, RegExp]>([
    [
      "a gate's format without a baseline",
      { ...BARE, format: 'markdown' },
      '--format',
      /^markdown is the gate's format: add --baseline RUN\|FILE$/,
    ],
    [
      'a bar without a baseline',
      { ...BARE, maxDrop: 3 },
      '--min-drop, --max-drop, --fail-on',
      /^judge a run against --baseline RUN\|FILE$/,
    ],
    [
      '--fail-on without a baseline',
      { ...BARE, failOn: 'regression' },
      '--min-drop, --max-drop, --fail-on',
      /baseline/,
    ],
    ['a sample of a fraction', { ...BARE, sample: 2.5 }, '--sample', /got 2\.5$/],
    ['a negative seed', { ...BARE, sample: 2, seed: -1 }, '--seed', /got -1$/],
    ['a repeat of none', { ...BARE, repeat: -2 }, '--repeat', /got -2$/],
    ['a negative -j', { ...BARE, concurrency: -1 }, '-j', /got -1$/],
    ['a temperature that is no number', { ...BARE, temperature: [Number.NaN] }, '--temperature', /got NaN$/],
    ['a drop over 100 points', { ...BARE, baseline: 'R', minDrop: 120 }, '--min-drop', /got 120$/],
    ['an unknown report format', { ...BARE, format: 'pdf' as 'tui' }, '--format', /got "pdf"$/],
  ])('refuses %s, naming the flag (exit 2)', (_, flags, key, problem) => {
    const attempt = () => runRequestOf(flags);
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).key).toBe(key);
      expect((error as ConfigError).problem).toMatch(problem);
      expect((error as ConfigError).exitCode).toBe(2);
    }
  });

  it.each([
    [{ cacheOnly: true }, 'only'],
    [{ cacheOnly: true, cache: true }, 'only'],
    [{ cache: true }, 'read'],
    [{ cache: false }, 'refresh'],
    [{}, 'refresh'],
  ] as const)('the cache of %o is %s', (flags, mode) => {
    expect(cacheModeOf(flags)).toBe(mode);
  });

  it("a schedule's fire plans with the flags `schedule create` kept, -m among them", () => {
    const spec = {
      schedule: { name: 'nightly', id: 'x' },
      flags: { models: ['m1'], dataset: ['pets'], cache: true, tracker: 'none' },
    } as unknown as Parameters<typeof fireRequestOf>[0];
    const request = fireRequestOf(spec);
    expect([request.contenders.models, request.selection.datasets, request.cache, request.tracking]).toEqual([
      ['m1'],
      ['pets'],
      'read',
      { tracker: 'none' },
    ]);
  });
});
