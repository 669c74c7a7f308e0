import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import { readLineup } from '../suite/lineup.ts';
import type { LoadedSuite } from '../suite/load.ts';

/**
 * One line per provider this worker does not know and per key it lacks, naming them and the contenders that need
 * them: their cases are not called here, and wait for a worker that can call them.
 */
export function keylessLines(
  registry: ProviderRegistry,
  contenders: readonly { provider: string; id: string }[],
  env: NodeJS.ProcessEnv,
): string[] {
  const needing = new Map<string, Set<string>>();
  const unknown = new Map<string, Set<string>>();
  for (const { provider, id } of contenders) {
    const known = registry.get(provider);
    if (!known) unknown.set(provider, (unknown.get(provider) ?? new Set()).add(id));
    for (const key of known?.envKeys ?? []) {
      if (!env[key]) needing.set(key, (needing.get(key) ?? new Set()).add(id));
    }
  }
  return [
    ...[...unknown].map(
      ([provider, ids]) =>
        `this worker knows no provider ${provider}: it will not call ${[...ids].join(', ')}; ` +
        'their cases wait for a worker that knows it',
    ),
    ...[...needing].map(
      ([key, ids]) =>
        `${key} is not set in this worker's environment: it will not call ${[...ids].join(', ')}; ` +
        `their cases wait for a worker that has ${key}`,
    ),
  ];
}

/** Says at a worker's start which of the lineup's (or its run's) contenders it cannot call, and why. */
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
