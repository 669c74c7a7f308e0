import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { saveSnapshot } from '../../src/output/save.ts';
import { BIN } from '../helpers/cli.ts';
import { REPO } from '../helpers/suite-dir.ts';
import { snapshotFixture } from './fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'llm-evals-colour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = saveSnapshot(snapshotFixture({ score: 2, cost: -1 }), dir);
const EXTRACTION = join(REPO, 'examples/extraction-suite');

/** The real CLI's raw stdout (colour codes kept) under the colour settings given. */
function raw(args: string[], colour: Record<string, string>, cwd = dir): string {
  const env: NodeJS.ProcessEnv = { ...process.env, ...colour };
  for (const key of ['NO_COLOR', 'FORCE_COLOR'] as const) if (!(key in colour)) delete env[key];
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

const ESC = '\u001b[';
const BLUE = (t: string) => `${ESC}34m${t}${ESC}39m`;
const CYAN = (t: string) => `${ESC}36m${t}${ESC}39m`;

describe('colours in the terminal', () => {
  it.each([
    ['render --format tui', ['render', file, '--format', 'tui', '--scores']],
    ['weights', ['weights']],
  ])('NO_COLOR turns them off: %s', (_, args) => {
    const cwd = args[0] === 'weights' ? EXTRACTION : dir;
    expect(raw(args, { NO_COLOR: '1', FORCE_COLOR: '1' }, cwd)).not.toContain(ESC);
  });

  it('paints the provider blue and the model in its progress bar’s colour', () => {
    const out = raw(['render', file, '--format', 'tui'], { FORCE_COLOR: '1' });
    expect(out).toContain(BLUE('fake/') + CYAN('alpha'));
    expect(out).toContain(BLUE('other/'));
  });

  it('shows ↓ in bold blue where low is good and ↑ in bold yellow where high is good', () => {
    const out = raw(['weights'], { FORCE_COLOR: '1' }, EXTRACTION);
    expect(out).toContain(`${ESC}1m${ESC}34m↓ low is good`);
    expect(out).toContain(`${ESC}1m${ESC}33m↑ high is good`);
  });
});
