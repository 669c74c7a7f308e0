import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.ts';
import { braintrustTracker } from '../../src/trackers/braintrust.ts';
import { checkTracker } from '../../src/trackers/check.ts';
import { logfireTracker } from '../../src/trackers/otlp.ts';
import type { TrackerDefinition } from '../../src/trackers/types.ts';

const weave: TrackerDefinition = {
  name: 'weave',
  envKey: 'WANDB_API_KEY',
  packages: ['zod', '@llm-evals-test/no-such-package'],
  create: () => {
    throw new Error('not made in this test');
  },
};

describe('checkTracker', () => {
  it.each<[string, TrackerDefinition, Record<string, string>]>([
    ['logfire with its token', logfireTracker, { LOGFIRE_TOKEN: 't' }],
    [
      'logfire with an OTLP endpoint instead',
      logfireTracker,
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
    ],
    ['braintrust with its key', braintrustTracker, { BRAINTRUST_API_KEY: 'k' }],
  ])('passes %s', async (_, tracker, env) => {
    await expect(checkTracker(tracker, env, process.cwd())).resolves.toBeUndefined();
  });

  it.each<[string, TrackerDefinition, Record<string, string>, string]>([
    [
      'a missing key',
      braintrustTracker,
      {},
      'the braintrust tracker needs BRAINTRUST_API_KEY in the environment',
    ],
    [
      'logfire with nothing set',
      logfireTracker,
      { BRAINTRUST_API_KEY: 'k' },
      'the logfire tracker needs LOGFIRE_TOKEN in the environment',
    ],
    [
      'a missing package',
      weave,
      { WANDB_API_KEY: 'w' },
      'the weave tracker needs the package @llm-evals-test/no-such-package (npm install @llm-evals-test/no-such-package)',
    ],
    [
      'both at once, in one error',
      weave,
      {},
      'the weave tracker needs the package @llm-evals-test/no-such-package (npm install @llm-evals-test/no-such-package) and WANDB_API_KEY in the environment',
    ],
  ])('fails before any call on %s', async (_, tracker, env, message) => {
    const checked = checkTracker(tracker, env, process.cwd());
    await expect(checked).rejects.toThrow(ConfigError);
    await expect(checked).rejects.toThrow(message);
  });
});
