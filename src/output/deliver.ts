import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pc from 'picocolors';
import {
  extensionOf,
  formatFor,
  renderReport,
  type ReportFormat,
  type ReportOptions,
} from '../report/report-formats.ts';
import { openInBrowser } from './open-browser.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { stripAnsi } from '../report/text-width.ts';
import { shownPath, writeWhole } from './write-whole.ts';

/** Where reports go: a command's streams, environment and working directory. */
export interface ReportIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The width the TUI on stdout must fit; files get no limit. */
  columns?: number;
}

/** How a finished run is shown: the lineup's `results.display` under the request's. */
export interface Delivery extends ReportOptions {
  /** `--display`, else `results.display`, else `both`: the TUI on stdout and the HTML report in a browser. */
  display: 'none' | 'tui' | 'browser' | 'both';
  /** `--format`: what `-o` writes, or what stdout gets instead of the TUI when there is no `-o`. */
  format?: ReportFormat;
  /** `-o [FILE]`: `true` for the default file beside the snapshot. */
  output?: string | boolean;
  /** `false` with `--no-open`: the HTML is written, no browser opened. */
  open: boolean;
  snapshotFile: string;
  /** Where a relative `-o` lands: the suite's project. */
  baseDir: string;
  /** `render`: the report comes from the snapshot file, so a failed write is redone from it, not from Temporal. */
  fromFile?: boolean;
}

/** What a delivery does: the file `-o` writes, what stdout gets, the HTML report's file and whether to open it. */
export interface DeliveryPlan {
  file?: { format: ReportFormat; path: string };
  stdout?: ReportFormat;
  html?: { path: string; open: boolean };
}

const beside = (snapshotFile: string, format: ReportFormat) =>
  snapshotFile.replace(/\.json$/, '') + '.' + extensionOf(format);

/**
 * Decides where reports go (pure): `-o` writes `--format` (else the file's extension's, else HTML) to FILE or beside
 * the snapshot; a `--format` without `-o` takes stdout from the TUI; the display adds the TUI and the HTML report.
 */
export function planDelivery(d: Delivery): DeliveryPlan {
  const plan: DeliveryPlan = {};
  if (d.output) {
    const format = d.format ?? (typeof d.output === 'string' ? formatFor(d.output) : undefined) ?? 'html';
    const path = typeof d.output === 'string' ? resolve(d.baseDir, d.output) : beside(d.snapshotFile, format);
    plan.file = { format, path };
  }
  if (d.format && !d.output) plan.stdout = d.format;
  else if (d.display === 'tui' || d.display === 'both') plan.stdout = 'tui';
  if (d.display === 'browser' || d.display === 'both') {
    const path = plan.file?.format === 'html' ? plan.file.path : beside(d.snapshotFile, 'html');
    plan.html = { path, open: d.open };
  }
  return plan;
}

/** The command that writes a report again after a failed write: `report RUN` from Temporal, else `render`. */
export function writeAgain(snapshot: Snapshot, d: Delivery, file: string, format: ReportFormat): string {
  const out = `-o ${shownPath(file)}${formatFor(file) === format ? '' : ` --format ${format}`}`;
  if (d.fromFile || snapshot.rescoreOf) {
    return `The snapshot ${shownPath(d.snapshotFile)} is whole; write the report again with: llm-evals render ${shownPath(d.snapshotFile)} ${out}`;
  }
  return `The run's results are safe in Temporal; write the report again with: llm-evals report ${snapshot.runId} ${out}`;
}

/** Shows a saved run as the request and the lineup ask (see `planDelivery`); a browser that cannot open is only noted. */
export async function deliverReports(snapshot: Snapshot, d: Delivery, io: ReportIo): Promise<DeliveryPlan> {
  const plan = planDelivery(d);
  const shown = (file: string) => {
    const near = relative(io.cwd, file);
    return near && !near.startsWith('..') ? near : file;
  };
  const htmlPath = plan.html?.path ?? (plan.file?.format === 'html' ? plan.file.path : undefined);
  // The HTML's URL is known before it is written, so `--scores` links each experiment to its row there.
  const options = {
    ...d,
    snapshotFile: shown(d.snapshotFile),
    ...(htmlPath ? { reportUrl: pathToFileURL(htmlPath).href } : {}),
  };
  if (plan.file && !(plan.file.format === 'json' && plan.file.path === d.snapshotFile)) {
    const { path, format } = plan.file;
    // The JSON report is the saved snapshot, byte for byte: copied, not written again (100,000 results make a string
    // of hundreds of megabytes).
    const body =
      format === 'json' && !d.fromFile && existsSync(d.snapshotFile)
        ? { copyOf: d.snapshotFile }
        : renderReport(format, snapshot, options);
    writeWhole(
      path,
      typeof body === 'string' && format === 'tui' ? stripAnsi(body) : body,
      writeAgain(snapshot, d, path, format),
    );
    io.stderr.write(
      `${plan.file.format === 'json' ? 'snapshot' : 'report'} written: ${shown(plan.file.path)}\n`,
    );
  }
  if (plan.stdout) io.stdout.write(renderReport(plan.stdout, snapshot, { ...options, width: io.columns }));
  if (!plan.html) return plan;
  if (plan.html.path !== plan.file?.path) {
    const { path } = plan.html;
    writeWhole(path, renderReport('html', snapshot, options), writeAgain(snapshot, d, path, 'html'));
    io.stderr.write(`report written: ${shown(plan.html.path)}\n`);
  }
  if (plan.html.open) {
    const problem = await openInBrowser(plan.html.path, io.env);
    if (problem)
      io.stderr.write(pc.yellow(`not opened (${problem}); the report is at ${shown(plan.html.path)}`) + '\n');
  }
  return plan;
}
