/** A problem with one case's files, for `verify` (or a ConfigError where a run needs the case). */
export interface CaseProblem {
  file: string;
  key?: string;
  problem: string;
}
