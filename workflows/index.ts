export { compareRun, type RunResult } from './compare-run.ts';
export { experiment, type ExperimentInput, type ExperimentSummary } from './experiment.ts';
export { runGate } from './run-gate.ts';
export { scheduledRun } from './scheduled-run.ts';
