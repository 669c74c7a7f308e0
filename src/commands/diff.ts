import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Io } from '../cli/io.ts';
import type { DiffFlags } from '../cli/options.ts';
import { diffRuns, digestOf, type RunDigest } from '../core/run-change.ts';
import { readSnapshot } from '../output/save.ts';
import { renderChange } from '../report/change.ts';
import { renderChangePage } from '../report/html-change.ts';
import { linkForCommand } from '../session/link.ts';
import { projectOf } from '../session/open-suite.ts';
import type { TemporalLink } from '../client/connect.ts';
import { suitePlaceOf } from './request.ts';

/** A run argument names a snapshot file when it ends in .json or is a file that exists; else it is a run id. */
const isFile = (cwd: string, arg: string) => arg.endsWith('.json') || existsSync(resolve(cwd, arg));

/**
 * `diff RUN_A|FILE RUN_B|FILE`: per contender and dataset, score, wscore, cost and latency then → now, and the
 * contenders and cases added or gone. Two snapshot files need no Temporal at all.
 */
export async function diffCommand(a: string, b: string, flags: DiffFlags, io: Io): Promise<number> {
  let link: TemporalLink | undefined;
  const digestOfArg = async (arg: string): Promise<RunDigest> => {
    if (isFile(io.cwd, arg)) return digestOf(readSnapshot(resolve(io.cwd, arg)));
    link ??= await linkForCommand(projectOf(suitePlaceOf(flags), io), io, 'diff');
    return link.runs.digest(arg);
  };
  try {
    const before = await digestOfArg(a);
    const after = await digestOfArg(b);
    const change = diffRuns(before, after);
    const format = flags.format ?? 'tui';
    const text =
      format === 'json'
        ? JSON.stringify(change, null, 2) + '\n'
        : format === 'html'
          ? renderChangePage(change)
          : renderChange(change, flags.output ? {} : { width: io.columns }) + '\n';
    if (flags.output) {
      const file = resolve(io.cwd, flags.output);
      writeFileSync(file, text);
      io.stderr.write(`wrote ${file}\n`);
    } else io.stdout.write(text);
    return 0;
  } finally {
    await link?.close();
  }
}
