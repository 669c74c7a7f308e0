import { describe, expect, it } from 'vitest';
import {
  buildIdOf,
  deploymentNameOf,
  describeBuild,
  pinnedBuildOf,
  versioningOn,
} from '../../src/client/versioning.ts';
import { buildLine } from '../../src/session/build-line.ts';

describe('deploymentNameOf', () => {
  it.for([
    ['llm-evals:toy', 'llm-evals-toy'],
    ['llm-evals:my.suite', 'llm-evals-my-suite'],
    ['durable-x', 'durable-x'],
    ['__hidden', 'hidden'],
  ] as const)('%s → %s', ([queue, name]) => {
    expect(deploymentNameOf(queue)).toBe(name);
  });

  it('keeps a long name short, and two long names apart', () => {
    const a = deploymentNameOf(`llm-evals:${'a'.repeat(200)}`);
    const b = deploymentNameOf(`llm-evals:${'a'.repeat(199)}b`);
    expect(a.length).toBeLessThanOrEqual(80);
    expect(a).not.toBe(b);
    expect(a).not.toMatch(/[.:]/);
  });
});

describe('buildIdOf', () => {
  it('is the version and the bundle’s hash: the same code the same build, other code another', () => {
    expect(buildIdOf('0.2.0', 'code')).toMatch(/^0\.2\.0\+[0-9a-f]{12}$/);
    expect(buildIdOf('0.2.0', 'code')).toBe(buildIdOf('0.2.0', 'code'));
    expect(buildIdOf('0.2.0', 'code')).not.toBe(buildIdOf('0.2.0', 'code2'));
    expect(buildIdOf('0.2.0', 'code')).not.toBe(buildIdOf('0.2.1', 'code'));
  });
});

describe('versioningOn', () => {
  it.for([
    [undefined, true],
    ['', true],
    ['0', false],
    ['1', true],
  ] as const)('LLM_EVALS_WORKER_VERSIONING=%s → %s', ([value, on]) => {
    expect(versioningOn(value === undefined ? {} : { LLM_EVALS_WORKER_VERSIONING: value })).toBe(on);
  });

  it('refuses any other value, naming the variable and the value (exit 2)', () => {
    let thrown: { exitCode?: number; message?: string } = {};
    try {
      versioningOn({ LLM_EVALS_WORKER_VERSIONING: 'yes' });
    } catch (error) {
      thrown = error as typeof thrown;
    }
    expect(thrown.exitCode).toBe(2);
    expect(thrown.message).toContain('LLM_EVALS_WORKER_VERSIONING=yes');
  });
});

describe('pinnedBuildOf', () => {
  const version = { deploymentName: 'llm-evals-toy', buildId: 'b1' };
  it.for([
    { name: 'unversioned', info: {}, build: undefined },
    {
      name: 'pinned on its first task',
      info: { versioningInfo: { deploymentVersion: version } },
      build: version,
    },
    {
      name: 'pinned at start (override)',
      info: { versioningInfo: { versioningOverride: { pinned: { version } } } },
      build: version,
    },
    {
      name: 'an override wins over the version that ran last',
      info: {
        versioningInfo: {
          deploymentVersion: { deploymentName: 'llm-evals-toy', buildId: 'b0' },
          versioningOverride: { pinned: { version } },
        },
      },
      build: version,
    },
  ])('$name', ({ info, build }) => {
    expect(pinnedBuildOf(info)).toEqual(build);
  });
});

describe('buildLine', () => {
  const build = { deploymentName: 'llm-evals-toy', buildId: 'b1' };
  it.for([
    { polling: 2, closed: false, line: 'pinned to llm-evals-toy build b1, 2 worker(s) of it polling\n' },
    { polling: 0, closed: false, line: /pinned to llm-evals-toy build b1, .*no worker of that build polls/ },
    { polling: 0, closed: true, line: 'pinned to llm-evals-toy build b1\n' },
  ])('$polling polling, closed $closed', ({ polling, closed, line }) => {
    const said = buildLine({ ...build, polling }, closed);
    if (typeof line === 'string') expect(said).toBe(line);
    else expect(said).toMatch(line);
  });
  it('describeBuild', () => expect(describeBuild(build)).toBe('llm-evals-toy build b1'));
});
