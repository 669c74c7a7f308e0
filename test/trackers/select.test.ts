import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.ts';
import { selectTracker, type SelectionInput } from '../../src/trackers/select.ts';

const TRACKERS = [
  { name: 'braintrust', envKey: 'BRAINTRUST_API_KEY' },
  { name: 'logfire', envKey: 'LOGFIRE_TOKEN' },
  { name: 'weave', envKey: 'WANDB_API_KEY' },
];

type Input = Omit<SelectionInput<(typeof TRACKERS)[number]>, 'trackers'>;

const BOTH = { BRAINTRUST_API_KEY: 'b', LOGFIRE_TOKEN: 'l' };

describe('selectTracker (T4)', () => {
  it.each<[string, Input, string | undefined, string]>([
    [
      'nothing set',
      { env: {} },
      undefined,
      'no remote tracker: none of BRAINTRUST_API_KEY, LOGFIRE_TOKEN, WANDB_API_KEY is set',
    ],
    ['one key set', { env: { LOGFIRE_TOKEN: 'l' } }, 'logfire', 'logfire: LOGFIRE_TOKEN is set'],
    ['a custom tracker key', { env: { WANDB_API_KEY: 'w' } }, 'weave', 'weave: WANDB_API_KEY is set'],
    [
      'an empty key is unset',
      { env: { LOGFIRE_TOKEN: ' ' } },
      undefined,
      'no remote tracker: none of BRAINTRUST_API_KEY, LOGFIRE_TOKEN, WANDB_API_KEY is set',
    ],
    [
      'the flag over the env',
      { asked: 'braintrust', env: { LOGFIRE_TOKEN: 'l' } },
      'braintrust',
      'braintrust: chosen with --tracker',
    ],
    [
      'the flag settles two keys',
      { asked: 'logfire', env: BOTH },
      'logfire',
      'logfire: chosen with --tracker',
    ],
    [
      'the flag over the lineup',
      { asked: 'logfire', configured: 'braintrust', env: {} },
      'logfire',
      'logfire: chosen with --tracker',
    ],
    [
      'the lineup over the env',
      { configured: 'braintrust', configFile: 'evals/.llm-evals.config.yml', env: BOTH },
      'braintrust',
      'braintrust: tracker: braintrust in evals/.llm-evals.config.yml',
    ],
    ['--tracker none', { asked: 'none', env: BOTH }, undefined, 'no remote tracker: --tracker none'],
    ['--tracker local', { asked: 'local', env: BOTH }, undefined, 'no remote tracker: --tracker local'],
    ['--local', { local: true, configured: 'logfire', env: BOTH }, undefined, 'no remote tracker: --local'],
    [
      '--local with --tracker none',
      { local: true, asked: 'none', env: {} },
      undefined,
      'no remote tracker: --local',
    ],
    [
      'tracker: none in the lineup',
      { configured: 'none', env: BOTH },
      undefined,
      'no remote tracker: tracker: none',
    ],
  ])('%s', (_, input, chosen, reason) => {
    const selection = selectTracker({ ...input, trackers: TRACKERS });
    expect(selection.tracker?.name).toBe(chosen);
    expect(selection.reason).toBe(reason);
  });

  it.each<[string, Input, string]>([
    [
      'two keys set',
      { env: BOTH },
      'BRAINTRUST_API_KEY and LOGFIRE_TOKEN are both set, so the tracker is ambiguous: choose braintrust or logfire with --tracker NAME or tracker: in the lineup (--local for none)',
    ],
    [
      'an unknown flag',
      { asked: 'logfir', env: {} },
      '--tracker: unknown tracker "logfir"; did you mean "logfire"? (known: braintrust, logfire, weave, none)',
    ],
    [
      'a far-off name',
      { asked: 'datadog', env: {} },
      '--tracker: unknown tracker "datadog" (known: braintrust, logfire, weave, none)',
    ],
    [
      'an unknown lineup value',
      { configured: 'braintrst', configFile: 'lineup.yml', env: {} },
      'lineup.yml: tracker: unknown tracker "braintrst"; did you mean "braintrust"? (known: braintrust, logfire, weave, none)',
    ],
    [
      '--local against a tracker',
      { local: true, asked: 'logfire', env: {} },
      '--local: contradicts --tracker logfire: choose one',
    ],
  ])('refuses %s', (_, input, message) => {
    const attempt = () => selectTracker({ ...input, trackers: TRACKERS });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
  });
});
