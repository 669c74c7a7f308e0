export { compareRun, type RunCarry, type RunResult } from './compare-run.ts';
export { experimentSlice, type SliceInput, type SliceResult } from './experiment-slice.ts';
export { runGate } from './run-gate.ts';
