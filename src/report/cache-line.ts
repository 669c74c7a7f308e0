import type { CacheUse } from '../core/cache-summary.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { contenderName } from './columns.ts';
import { formatCost } from './format.ts';
import { esc } from './html-escape.ts';

/** Cents for a bill, four decimals (formatCost) below a cent, so a small run's saving does not read $0.00. */
const dollars = (usd: number) => (usd >= 0.01 ? `$${usd.toFixed(2)}` : formatCost(usd));

/** The run's use of the cache summed over its contenders. */
function totals(snapshot: Snapshot): Required<CacheUse> | undefined {
  const uses = Object.values(snapshot.cache ?? {});
  if (uses.length === 0) return undefined;
  const sum = { cached: 0, skipped: 0, results: 0, paidUsd: 0, replyCostUsd: 0, unpriced: 0 };
  for (const use of uses) for (const k of Object.keys(sum) as (keyof CacheUse)[]) sum[k] += use[k] ?? 0;
  return sum;
}

/**
 * What the run paid against what its replies cost when called: `this run paid $0.0000, the replies cost $0.03 when
 * they were called (saved $0.03)`; unknown, not $0, when no reply has a price.
 */
function costText(t: Required<CacheUse>): string {
  // Replies without a price and none with a cost: $0 would read as free.
  if (t.unpriced > 0 && t.replyCostUsd === 0) {
    return 'no reply has a price, so what it cost and saved is unknown';
  }
  const saved = Math.max(0, t.replyCostUsd - t.paidUsd);
  const unpriced = t.unpriced ? ` (${t.unpriced} without a price left out)` : '';
  return (
    `this run paid ${dollars(t.paidUsd)}, the replies cost ${dollars(t.replyCostUsd)} when they were called ` +
    `(saved ${dollars(saved)})${unpriced}`
  );
}

/**
 * The one line a run that used the reply cache ends with: `31 of 40 replies from the cache: this run paid $0.10, the
 * replies cost $0.52 when they were called (saved $0.42); --no-cache calls them again`, and the cases `--cache-only`
 * skipped; `''` for a run that took nothing from it.
 */
export function renderCacheLine(snapshot: Snapshot): string {
  const t = totals(snapshot);
  if (!t) return '';
  const parts = [
    `${t.cached} of ${t.results} replies from the cache: ${costText(t)}; --no-cache calls them again`,
  ];
  if (t.skipped)
    parts.push(
      `${t.skipped} ${t.skipped === 1 ? 'case' : 'cases'} skipped: no reply in the cache (--cache-only)`,
    );
  return parts.join('; ');
}

/** Each contender's results from the cache, for the TUI: `from the cache: acme/x 2 of 2, acme/y 0 of 2 (1 skipped)`. */
export function renderCacheCounts(snapshot: Snapshot): string {
  if (!snapshot.cache) return '';
  const counts = snapshot.contenders.flatMap((c) => {
    const use = snapshot.cache![c.key];
    if (!use) return [];
    const skipped = use.skipped ? ` (${use.skipped} skipped)` : '';
    return [`${contenderName(c)} ${use.cached} of ${use.results}${skipped}`];
  });
  return counts.length ? `from the cache: ${counts.join(', ')}` : '';
}

/** The HTML report's account of the cache: per contender, results from it, skipped cases, cost paid vs the replies'. */
export function cacheHtml(snapshot: Snapshot): string {
  const rows = snapshot.contenders.flatMap((c) => {
    const use = snapshot.cache?.[c.key];
    if (!use) return [];
    const cells = [
      contenderName(c),
      use.cached,
      use.results,
      use.skipped,
      // Unknown, not $0, for a contender none of whose replies has a price.
      use.unpriced && use.replyCostUsd === 0 ? '?' : formatCost(use.paidUsd),
      use.unpriced && use.replyCostUsd === 0 ? '?' : formatCost(use.replyCostUsd),
    ];
    return [`<tr>${cells.map((v) => `<td>${esc(v)}</td>`).join('')}</tr>`];
  });
  return [
    `<p class="note">${esc(renderCacheLine(snapshot))}. Latency, tokens and cost of a reply from the cache are those of the call that paid for it.</p>`,
    '<table class="cache"><thead><tr><th>contender</th><th>cached</th><th>results</th><th>skipped</th><th>paid now</th><th>cost of the replies</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table>`,
  ].join('\n');
}
