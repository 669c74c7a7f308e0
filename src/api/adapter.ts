import type { Case, Json, Model, Reply } from './types.ts';

/** Runs one case against one model and returns a Reply; extend it with your real prompt builder and parser. */
export abstract class Adapter {
  /** Once per dataset and worker, before the first case of that dataset. */
  prepare(_dataset: string): void | Promise<void> {}

  abstract call(kase: Case, model: Model): Promise<Reply>;

  /** What the scorer needs beyond the case. */
  context(_kase: Case): Json {
    return {};
  }

  /** Offline problems with a dataset, for `verify`. */
  verify(_dataset: string): string[] | Promise<string[]> {
    return [];
  }

  /** Recorded in the snapshot beside the run's settings. */
  metadata(): Record<string, Json> {
    return {};
  }
}
