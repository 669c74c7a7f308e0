import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCliLong, stripAnsi } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { caseFiles } from '../helpers/suite-dir.ts';
import { completion, userText } from '../providers/chat-server.ts';
import { cliEnv, providerSuite } from '../providers/cli-suite.ts';

// Cases that share a variant do not vary independently: when a change breaks one variant whole, the gate's interval
// is the clustered one (Miller 2024), wider than the one that counts the cases as independent, and every report names
// the clustering. The same 40 cases laid out flat are independent, and the same break is then "significant".

const { dirs, servers } = cliFixtures();

/** 40 cases of dataset `pets`: in four variants of ten (`v0/001`…), or flat (`v0-001`…) with no variant. */
function cases(grouped: boolean): Record<string, string> {
  const files: Record<string, string> = {};
  for (let v = 0; v < 4; v++)
    for (let i = 1; i <= 10; i++) {
      const id = grouped ? `v${v}/${String(i).padStart(3, '0')}` : `v${v}-${String(i).padStart(3, '0')}`;
      Object.assign(
        files,
        caseFiles(`evals/datasets/pets/cases/${id}`, {
          input: `Case ${id}.\n`,
          expected: JSON.stringify({ animal: 'case', name: `v${v}:${i}` }) + '\n',
        }),
      );
    }
  return files;
}

describe('compare --baseline on clustered cases', () => {
  it('gives the clustered interval, wider than the independent one, and names the clustering', async ({
    expect,
  }) => {
    let broken = false;
    // Once broken, every case of variant v0 is answered with the wrong name (the toy scorer gives it half marks).
    const server = new FaultServer({
      m: (_, request) =>
        broken && userText(request).includes('"v0:')
          ? completion('{"animal": "case", "name": "nobody"}')
          : undefined,
    });
    servers.push(server);
    const url = await server.start();
    const env = cliEnv(await warmCache(), { CI: '1' });
    const gate = async (grouped: boolean) => {
      const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, cases(grouped));
      const results = join(project, 'evals/results');
      broken = false;
      const first = await runCliLong(['compare', '--display', 'none', '--no-open'], { cwd: project, env });
      expect(first.code, first.stderr).toBe(0);
      const baseline = join(
        results,
        readdirSync(results).find((f) => f.endsWith('.json'))!,
      );
      broken = true;
      const run = await runCliLong(
        ['compare', '--no-open', '--no-cache', '--baseline', baseline, '--format', 'markdown'],
        { cwd: project, env },
      );
      const saved = readdirSync(results)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as Snapshot)
        .find((s) => !baseline.includes(s.runId))!;
      return { run, saved, markdown: run.stdout };
    };

    const grouped = await gate(true);
    // Residuals of the 40 differences (−0.5 on v0's ten, 0 elsewhere; mean −0.125): −0.375 on ten, 0.125 on thirty.
    // Σ_c (Σr)² = 3.75² + 3·1.25² = 18.75, Σr² = 1.875; SE = √((18.75 + 1.875/39) / 40²) = 0.108392;
    // qt(0.975, 3) = 3.182446 (R): −12.5 ± 34.5 points.
    expect(grouped.run.code, grouped.run.stderr).toBe(0);
    expect(grouped.markdown).toContain('| lan/m | pets | 100.0% → 87.5% | −12.5 [−47.0, +22.0] |');
    expect(grouped.markdown).toContain('Paired tests: clustered by variant (4 clusters)');
    expect(grouped.markdown).toMatch(/\| unchanged \|/);
    expect(stripAnsi(grouped.run.stderr)).toContain('paired tests: clustered by variant (4 clusters)');
    expect(grouped.saved.clustering).toEqual([{ dataset: 'pets', by: 'variant', clusters: 4 }]);

    const flat = await gate(false);
    expect(flat.run.code, flat.run.stderr).toBe(1);
    expect(flat.markdown).toContain('Paired tests: cases independent');
    expect(flat.saved.clustering).toEqual([{ dataset: 'pets', by: 'none', clusters: 0 }]);
    const interval = (md: string) =>
      md
        .match(/\| −12\.5 \[([−+]\d+\.\d), ([−+]\d+\.\d)\]/)!
        .slice(1)
        .map((v) => Number(v.replace('−', '-')));
    const [low, high] = interval(flat.markdown);
    expect(high! - low!).toBeLessThan(22 + 47);
    expect(high!).toBeLessThan(0);
  }, 240_000);
});
