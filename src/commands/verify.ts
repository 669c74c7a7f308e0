import { counted } from '../report/format.ts';
import pc from 'picocolors';
import { loadCases, shortPath } from '../suite/cases.ts';
import { suiteProblems } from '../suite/checks.ts';
import { judgesToCheck } from '../suite/judge.ts';
import { readLineup } from '../suite/lineup.ts';
import { loadEnvFiles } from '../suite/load.ts';
import type { Io } from '../cli/io.ts';
import { openSuite } from '../session/open-suite.ts';
import type { SuiteFlags } from '../cli/options.ts';
import { suitePlaceOf } from './request.ts';

/**
 * `verify`: empty inputs, missing or broken expected.json, the adapter's and scorer's checks, then what a run of
 * the lineup would need — its providers' keys (after the env files), their endpoints and the models they list — the very checks `compare`
 * runs before any call, with its exit code: 2 on any problem. Calls nothing.
 */
export async function verifyCommand(flags: SuiteFlags, io: Io): Promise<number> {
  const suite = await openSuite(suitePlaceOf(flags), io);
  loadEnvFiles(suite.root, suite.envFiles, io.env);
  const { cases, problems: loadProblems } = loadCases(suite.root, suite.casesGlob);
  const datasets = new Set(cases.map((c) => c.dataset)).size;
  const { entries } = readLineup({ config: suite.config, registry: suite.registry });
  // The judge is checked like the contenders: its key set, its endpoint up, its model served.
  const judges = judgesToCheck(suite.config, suite.judges);
  const providers = [...new Set([...entries, ...judges].map((e) => e.provider))];
  const warnings: string[] = [];
  const problems = await suiteProblems(suite, cases, {
    cwd: io.cwd,
    env: io.env,
    loadProblems,
    providers,
    models: [...entries, ...judges],
    contenders: entries,
    warnings,
  });
  if (cases.length === 0 && loadProblems.length === 0)
    problems.push(`no case matches ${suite.casesGlob} under ${shortPath(io.cwd, suite.root)}`);
  for (const p of problems) io.stdout.write(`${pc.red('✗')} ${p}\n`);
  for (const w of warnings) io.stdout.write(pc.yellow(`! warning: ${w}`) + '\n');
  const scope = `${counted(cases.length, 'case')} in ${counted(datasets, 'dataset')}`;
  if (problems.length > 0) {
    io.stdout.write(pc.red(`verify: ${counted(problems.length, 'problem')} (${scope})`) + '\n');
    return 2;
  }
  io.stdout.write(`${pc.green('✓')} verify: ${scope}, no problems\n`);
  return 0;
}
