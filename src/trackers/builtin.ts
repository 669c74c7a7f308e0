import { braintrustTracker } from './braintrust.ts';
import { logfireTracker } from './otlp.ts';
import type { TrackerDefinition } from './types.ts';

export { localTracker } from './local.ts';

/** The remote trackers that ship with llm-evals; a helper's own are registered after them. */
export const REMOTE_TRACKERS: readonly TrackerDefinition[] = [braintrustTracker, logfireTracker];
