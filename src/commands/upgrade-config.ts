import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pc from 'picocolors';
import { ConfigError } from '../errors.ts';
import { shortPath } from '../suite/cases.ts';
import { CONFIG_NAME } from '../suite/discover.ts';
import { upgradeConfig } from '../suite/upgrade-config.ts';
import type { Io } from '../cli/io.ts';
import { findSuite } from '../session/open-suite.ts';
import type { SuiteFlags } from '../cli/options.ts';
import { suitePlaceOf } from './request.ts';

/** The flags of `upgrade-config`: `-n` prints the upgraded lineup instead of writing it. */
export interface UpgradeFlags extends SuiteFlags {
  dryRun?: boolean;
}

/**
 * `upgrade-config`: rewrites the lineup's old `vendors:`/`direct:` form, leaving `<file>.bak`. It finds the file
 * without loading the suite, since a lineup in the old form is exactly what fails to load.
 */
export function upgradeConfigCommand(flags: UpgradeFlags, io: Io): Promise<number> {
  const found = findSuite(suitePlaceOf(flags), io);
  const file = found.configFile ?? join(found.evalsDir, CONFIG_NAME);
  const shown = shortPath(io.cwd, file);
  if (!existsSync(file)) throw new ConfigError(shown, undefined, 'no lineup file to upgrade');
  const old = readFileSync(file, 'utf8');
  const { text, changed, notes } = upgradeConfig(old, shown);
  for (const note of notes) io.stderr.write(`${shown}: ${note}\n`);
  if (flags.dryRun) {
    io.stdout.write(text);
    return Promise.resolve(0);
  }
  if (changed) {
    // The backup first: if writing the new file fails, the old text is already safe beside it.
    writeFileSync(`${file}.bak`, old);
    writeFileSync(file, text);
    io.stderr.write(pc.green(`wrote ${shown}; the old text is in ${shown}.bak`) + '\n');
  }
  return Promise.resolve(0);
}
