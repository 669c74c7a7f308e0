import { describe, expect, it } from 'vitest';
import {
  SERVER_SETTINGS,
  isOlder,
  missingSettings,
  settingsToApply,
} from '../../temporal/server-settings.ts';

// Which of this version's dev-server settings a running server lacks, and whether to start it again with them: read
// from its command line, and from which llm-evals started it.

describe('missingSettings', () => {
  const all = SERVER_SETTINGS.flat();
  it.each([
    { name: 'every setting given', args: ['server', 'start-dev', ...all], missing: [] },
    { name: 'a command line it cannot read', args: undefined, missing: [] },
    {
      name: 'one left out',
      args: all.filter((arg) => arg !== 'history.MaxBufferedQueryCount=100'),
      missing: ['history.MaxBufferedQueryCount=100'],
    },
    {
      name: 'a value under another flag',
      args: ['--dynamic-config-value', 'journal_mode=wal', ...all.slice(2)],
      missing: ['journal_mode=wal'],
    },
  ])('$name', ({ args, missing }) => {
    expect(missingSettings(args)).toEqual(missing);
  });
});

describe('settingsToApply', () => {
  const lacking = SERVER_SETTINGS.flat().filter((arg) => arg !== 'journal_mode=wal');
  it.each([
    { startedBy: undefined, ours: '0.2.0', apply: ['journal_mode=wal'] },
    { startedBy: '0.1.0', ours: '0.2.0', apply: ['journal_mode=wal'] },
    { startedBy: '0.2.0', ours: '0.2.0', apply: [] },
    { startedBy: '0.10.0', ours: '0.9.3', apply: [] },
    { startedBy: '1.0.0-beta.2', ours: '1.0.1', apply: ['journal_mode=wal'] },
  ])('started by $startedBy, this one $ours: $apply', ({ startedBy, ours, apply }) => {
    expect(settingsToApply(lacking, startedBy, ours)).toEqual(apply);
  });
  it.each([
    ['0.1.0', '0.1.1', true],
    ['0.9.9', '0.10.0', true],
    ['1.2.3', '1.2.3', false],
    ['2.0.0', '1.99.99', false],
  ] as const)('%s before %s: %s', (a, b, older) => {
    expect(isOlder(a, b)).toBe(older);
  });
});
