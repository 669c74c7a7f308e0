const on = Boolean(process.env.LLM_EVALS_TIMINGS);
const origin = performance.timeOrigin;

/** With LLM_EVALS_TIMINGS set, prints how long the process has run at `label` (to stderr): where a command's time goes. */
export function mark(label: string): void {
  if (on)
    process.stderr.write(
      `timing ${(performance.now() / 1000).toFixed(3)}s ${label} (${new Date(origin).toISOString()})\n`,
    );
}
