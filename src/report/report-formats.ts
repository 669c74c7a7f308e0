import { renderBreakdown } from './breakdown.ts';
import { batchLabel } from '../core/batch.ts';
import { renderCacheCounts } from './cache-line.ts';
import { renderChange, renderRegression } from './change.ts';
import { renderHtml } from './html.ts';
import { renderLeaderboard, type LeaderboardOptions } from './leaderboard.ts';
import type { Snapshot } from '../core/snapshot.ts';

/** The formats a report is written in (`--format`). */
export type ReportFormat = 'tui' | 'html' | 'json';

/** What shapes a report beyond the snapshot: the TUI's totals and scores, and `run`'s per-case breakdown. */
export interface ReportOptions extends LeaderboardOptions {
  breakdown?: boolean;
}

/** The format a file's extension asks for: `.html`/`.htm`, `.json`, else the TUI's text for `.txt`/`.log`. */
export function formatFor(file: string): ReportFormat | undefined {
  const ext = /\.([^./]+)$/.exec(file)?.[1]?.toLowerCase();
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'json') return 'json';
  if (ext === 'txt' || ext === 'log') return 'tui';
  return undefined;
}

/** The file extension a format is saved with. */
export function extensionOf(format: ReportFormat): string {
  return format === 'tui' ? 'txt' : format;
}

/** A snapshot rendered in one format; pure, so every display can be rebuilt later from the saved JSON. */
export function renderReport(format: ReportFormat, snapshot: Snapshot, options: ReportOptions = {}): string {
  if (format === 'html') return renderHtml(snapshot);
  if (format === 'json') return JSON.stringify(snapshot, null, 2) + '\n';
  const breakdown = options.breakdown ? renderBreakdown(snapshot, options) + '\n\n' : '';
  const change = snapshot.change ? '\n' + renderChange(snapshot.change, options) + '\n' : '';
  const regression = snapshot.regression?.length ? '\n' + renderRegression(snapshot.regression) + '\n' : '';
  const cached = renderCacheCounts(snapshot);
  return (
    breakdown +
    renderLeaderboard(snapshot, options) +
    '\n' +
    change +
    regression +
    (cached ? cached + '\n' : '') +
    batchLine(snapshot)
  );
}

/** A `--batch` run's word on its costs: `cost at the batch price (batch, −50 %): openai`. */
function batchLine(snapshot: Snapshot): string {
  const batch = snapshot.settings.batch;
  if (!batch) return '';
  return `cost at the batch price (${batchLabel(batch.discounts)}): ${Object.keys(batch.discounts).join(', ')}\n`;
}
