/** The flags shared by the suite commands (S1, C5), as commander parses them. */
export interface SuiteFlags {
  config?: string;
  helper?: string;
  search?: boolean;
  verbose?: boolean;
}

/** The flags of `run` and `compare` (C3–C5). */
export interface RunFlags extends SuiteFlags {
  models?: string[];
  dataset?: string[];
  case?: string[];
  effort?: string[];
  temperature?: number[];
  maxTokens?: number;
  parallelism?: number;
  concurrency?: number;
  project?: string;
  tracker?: string;
  local?: boolean;
  open?: boolean;
  dryRun?: boolean;
  output?: string | boolean;
  format?: 'tui' | 'html' | 'json';
  totals?: 'overall' | 'variant' | 'both';
  display?: 'none' | 'tui' | 'browser';
  autosave?: boolean;
  destination?: string;
  tempDir?: string;
  yes?: boolean;
}
