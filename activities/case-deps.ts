import type { Adapter } from '../src/api/adapter.ts';
import type { Scorer } from '../src/api/scorer.ts';
import type { Case } from '../src/api/types.ts';
import type { Contender } from '../src/core/matrix.ts';
import type { ProviderRegistry } from '../src/providers/registry.ts';
import type { ReplyCache } from './cached-model.ts';
import type { GateClient } from './gated-model.ts';

/** What a worker brings to its activities: the suite's code and cases, loaded in its own process, and the run's gate. */
export interface CaseDeps {
  adapter: Adapter;
  scorer: Scorer;
  /** The judge models the scorer may call, by id as the lineup names them: each goes out as this contender. */
  judges?: ReadonlyMap<string, Contender>;
  registry: ProviderRegistry;
  cases: ReadonlyMap<string, Case & { hash: string }>;
  /** Reads the cases again from disk: a long-lived worker's cases may be older than a run planned since. */
  refreshCases?: () => void;
  gate: GateClient;
  /** The reply cache, asked before the gate; none: every call is made. */
  replies?: ReplyCache;
  /** Where the providers' keys are read; the process's own when absent. */
  env?: NodeJS.ProcessEnv;
}

/** One case to run: which experiment, which case (by key and the hash the plan saw), which contender. */
export interface CaseTask {
  runId: string;
  experimentId: string;
  caseKey: string;
  caseHash: string;
  contender: Contender;
}
