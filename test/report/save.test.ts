import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSnapshot, saveSnapshot } from '../../src/output/save.ts';
import { snapshotFixture } from './fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'llm-evals-save-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('saveSnapshot and readSnapshot', () => {
  it('round-trips a snapshot through its schema', () => {
    const snapshot = snapshotFixture({ score: 1 });
    const file = saveSnapshot(snapshot, join(dir, 'results'));
    expect(file).toBe(join(dir, 'results', '20261130-120000-test.json'));
    expect(readSnapshot(file)).toEqual(snapshot);
  });

  it.each<[string, unknown, RegExp]>([
    ['not JSON', '{', /not a readable snapshot/],
    ['another version', { ...snapshotFixture(), version: 2 }, /version: expected snapshot version 1, got 2/],
    ['no version', { runId: 'x' }, /version: expected snapshot version 1, got undefined/],
    [
      'a result missing its status',
      (() => {
        const s = snapshotFixture();
        delete (s.results[3] as Partial<(typeof s.results)[number]>).status;
        return s;
      })(),
      /results\[3\]\.status: not a snapshot/,
    ],
    [
      'a cost that is text',
      { ...snapshotFixture(), weights: { cost: 'low' } },
      /weights\.cost: not a snapshot/,
    ],
  ])('refuses %s, naming the file and key', (name, content, message) => {
    const file = join(dir, `${name.replaceAll(' ', '-')}.json`);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    expect(() => readSnapshot(file)).toThrow(message);
    expect(() => readSnapshot(file)).toThrow(file);
  });
});
