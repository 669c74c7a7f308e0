import { renderWeights } from '../report/weights-table.ts';
import { shortPath } from '../suite/cases.ts';
import { checkWeights } from '../suite/plan.ts';
import type { Io } from '../cli/io.ts';
import { openSuite } from '../session/open-suite.ts';
import type { SuiteFlags } from '../cli/options.ts';
import { suitePlaceOf } from './request.ts';

/** `weights`: each weighted column's direction and real share; refuses the weights `compare` would refuse. */
export async function weightsCommand(flags: SuiteFlags, io: Io): Promise<number> {
  const suite = await openSuite(suitePlaceOf(flags), io);
  const metrics = suite.scorer.metrics();
  const weights = suite.config.values.weighted_score?.weights;
  checkWeights(
    suite.config.file,
    weights,
    metrics.map((m) => m.name),
  );
  const file = shortPath(io.cwd, suite.config.file);
  io.stdout.write(renderWeights(weights, metrics, file, { width: io.columns }) + '\n');
  return 0;
}
