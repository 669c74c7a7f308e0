import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/suite-dir.ts';

// Never a wrong word (issue 28): the README pointed at examples/systemd, which the package did not ship, and did not
// document BRAINTRUST_API_URL. What the README points a user at is in the package; what the trackers read is named.

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The files `npm pack` puts in the package (its scripts skipped: the list comes from package.json alone). */
function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
}

describe('the README says what the package holds and the code reads', () => {
  it('ships every file of examples/systemd, which the README and `schedule create` point at', () => {
    expect(README).toContain('node_modules/llm-evals/examples/systemd/');
    const files = packed();
    for (const name of readdirSync(join(REPO, 'examples/systemd'))) {
      expect(files).toContain(`examples/systemd/${name}`);
    }
  });

  it('names every environment variable the trackers read', () => {
    const dir = join(REPO, 'src/trackers');
    const read = new Set<string>();
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const m of text.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)) read.add(m[1]!);
    }
    expect([...read]).toContain('BRAINTRUST_API_URL');
    const missing = [...read].filter((name) => !README.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('gives the retry waits the code waits: 1, 2, 4 and 8 s', async () => {
    const { defaultBackoff, MAX_ATTEMPTS } = await import('../../src/core/retry.ts');
    const waits = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => defaultBackoff(i + 1));
    expect(waits).toEqual([1, 2, 4, 8]);
    expect(README).toContain(`tried ${MAX_ATTEMPTS} times in all`);
    expect(README).toContain(`else ${waits.slice(0, -1).join(', ')} and ${waits.at(-1)} s`);
  });
});
