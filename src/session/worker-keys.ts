import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import { readLineup } from '../suite/lineup.ts';
import type { LoadedSuite } from '../suite/load.ts';

/**
 * One line per key this worker lacks, naming the variable and the contenders that need it: their cases are not
 * called here, and wait for a worker that has it.
 */
export function keylessLines(
  registry: ProviderRegistry,
  contenders: readonly { provider: string; id: string }[],
  env: NodeJS.ProcessEnv,
): string[] {
  const needing = new Map<string, Set<string>>();
  for (const { provider, id } of contenders) {
    for (const key of registry.get(provider)?.envKeys ?? []) {
      if (!env[key]) needing.set(key, (needing.get(key) ?? new Set()).add(id));
    }
  }
  return [...needing].map(
    ([key, ids]) =>
      `${key} is not set in this worker's environment: it will not call ${[...ids].join(', ')}; ` +
      `their cases wait for a worker that has ${key}`,
  );
}

/** Says at a worker's start which of the lineup's contenders it cannot call for want of a key. */
export function warnKeyless(
  suite: LoadedSuite,
  io: Io,
  contenders?: readonly { provider: string; id: string }[],
): void {
  let served = contenders;
  if (!served) {
    try {
      served = readLineup({ config: suite.config, registry: suite.registry }).entries;
    } catch {
      // A lineup that does not read is the run's own error to report, when one is planned from it.
      return;
    }
  }
  for (const line of keylessLines(suite.registry, served, io.env))
    io.stderr.write(pc.yellow(`warning: ${line}`) + '\n');
}
