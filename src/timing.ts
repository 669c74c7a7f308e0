const on = Boolean(process.env.LLM_EVALS_TIMINGS);
const origin = performance.timeOrigin;

/**
 * With LLM_EVALS_TIMINGS set, prints how long the process has run at `label`, the CPU it has used (every thread,
 * the SDK's native ones too) and its resident memory, to stderr: where a command's time goes, and whether it waited or worked.
 */
export function mark(label: string): void {
  if (!on) return;
  const { user, system } = process.cpuUsage();
  const wall = (performance.now() / 1000).toFixed(3);
  const cpu = ((user + system) / 1e6).toFixed(3);
  const rss = (process.memoryUsage.rss() / 1048576).toFixed(0);
  process.stderr.write(
    `timing ${wall}s cpu ${cpu}s rss ${rss} MB ${label} (${new Date(origin).toISOString()})\n`,
  );
}
