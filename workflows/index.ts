export { compareRun, type RunResult } from './compare-run.ts';
export type { ExperimentInput } from '../src/core/run-input.ts';
export { experiment, type ExperimentSummary } from './experiment.ts';
export { runGate } from './run-gate.ts';
export { scheduledRun } from './scheduled-run.ts';
