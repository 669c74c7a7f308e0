import pc from 'picocolors';
import { ConfigError } from '../errors.ts';
import { missingKeys, suiteProblems } from '../suite/checks.ts';
import { judgesToCheck } from '../suite/judge.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { loadEnvFiles } from '../suite/load.ts';
import type { Io } from '../cli/io.ts';
import type { PlannedRun } from './plan-run.ts';

/** Prepares a process that will call the suite's code: its env files, then its beforeRun hook. */
export async function prepareSuite(suite: LoadedSuite, io: Io): Promise<void> {
  loadEnvFiles(suite.root, suite.envFiles, io.env);
  await suite.beforeRun?.();
}

/**
 * Runs `verify`'s checks on what a run would call, before any call (unless `--no-verify`): the planned cases, the
 * adapter's and scorer's checks, the providers' keys and the local endpoints. Each problem on its own line, then
 * one error: exit 2, nothing called.
 */
export async function checkBeforeRun(
  { suite, cases, plan }: PlannedRun,
  checks: boolean,
  io: Io,
): Promise<void> {
  // The judge's calls are provider calls: its key, endpoint and model are checked like the contenders'.
  const judges = judgesToCheck(suite.config, suite.judges);
  const providers = [...new Set([...plan.contenders, ...judges].map((c) => c.provider))];
  // Without the checks, keys still are: a run without them would fail every case.
  const warnings: string[] = [];
  const problems = !checks
    ? missingKeys(suite, providers, io.env)
    : await suiteProblems(suite, cases, {
        cwd: io.cwd,
        env: io.env,
        providers,
        models: [...plan.contenders, ...judges],
        contenders: plan.contenders,
        warnings,
      });
  for (const w of warnings) io.stderr.write(pc.yellow(`warning: ${w}`) + '\n');
  if (problems.length === 0) return;
  for (const p of problems) io.stderr.write(`${pc.red('✗')} ${p}\n`);
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  throw new ConfigError(
    undefined,
    undefined,
    `${count} found before any call; nothing was called (see llm-evals verify)`,
  );
}
