import { randomUUID } from 'node:crypto';

// What the durability tests (test/durable/resume-*.test.ts) share: a 20-case recording suite run at -p 2 -j 2 with
// calls of a quarter second, so an interruption at 10, 50 or 90 % finds calls in flight.

/** Cases in each durability scenario's suite. */
export const CASES = 20;
/** How long each fake call takes. */
export const CALL_MS = 250;
const PARALLELISM = 2;
const CONCURRENCY = 2;
/** Calls that can be in flight at once, and so at most repeated after an interruption (with those just finished). */
export const IN_FLIGHT = PARALLELISM * CONCURRENCY;
/** The flags every durability scenario plans its run with. */
export const RUN_FLAGS = ['-p', String(PARALLELISM), '-j', String(CONCURRENCY)];

/** The env that makes the recording provider record to `record`, on a task queue of its own named after `name`. */
export function recordingEnv(record: string, name: string): NodeJS.ProcessEnv {
  return {
    LLM_EVALS_TASK_QUEUE: `durable-${name}-${randomUUID()}`,
    RECORD_FILE: record,
    RECORDING_API_KEY: 'test-key',
    CALL_DELAY_MS: String(CALL_MS),
  };
}
