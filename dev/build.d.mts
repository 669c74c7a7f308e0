/** Rebuilds dist/ when a source changed since the last build. */
export function ensureBuilt(): Promise<void>;
/** Builds dist/ from the sources. */
export function build(): Promise<void>;
