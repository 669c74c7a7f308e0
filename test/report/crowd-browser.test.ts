import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.ts';
import { REPO } from '../helpers/suite-dir.ts';
import { crowdSnapshot, crowdTrend } from './crowd.ts';

// The report as a person sees it, at two common screen widths, as the lineup grows: the standings fit without a
// sideways scroll and show cost, and no chart label is cut by its box. The screenshots stay in test-artifacts/ for
// a person to look at.

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const title = present
  ? 'the HTML report of 2, 6 and 20 contenders in headless Chromium at 1,400 and 1,920 px'
  : `the crowded HTML report in headless Chromium: SKIPPED, ${CHROMIUM} is absent (apt-get install -y chromium)`;

/** The extraction example's weights: wscore, the field rates, cost, latency and errors all take a column. */
const WEIGHTS = { score: 5, hallucinated_rate: -6, invalid_rate: -8, cost: -2, latency: -1, errors: -3 };

/** What the page measures of itself (run in the page: this project has no DOM types). */
const MEASURE = `(() => {
  const tables = [...document.querySelectorAll('.scroll')].filter((s) => s.querySelector('table.sortable'));
  const cut = [];
  for (const svg of document.querySelectorAll('svg.chart')) {
    const frame = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll('text')) {
      const box = text.getBoundingClientRect();
      if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.top < frame.top - 0.5 ||
          box.bottom > frame.bottom + 0.5) cut.push(text.textContent);
    }
  }
  const costs = [...document.querySelectorAll('table.sortable thead th')].filter((th) => th.textContent.startsWith('cost'));
  return {
    page: [document.documentElement.scrollWidth, window.innerWidth],
    scrolled: tables.filter((s) => s.scrollWidth > s.clientWidth + 0.5).map((s) => s.closest('section').id),
    tables: tables.length,
    costs: costs.length,
    costHidden: costs.filter((th) => th.getBoundingClientRect().right > window.innerWidth).length,
    cut,
    charts: document.querySelectorAll('svg.chart').length,
  };
})()`;

interface Measured {
  page: [number, number];
  scrolled: string[];
  tables: number;
  costs: number;
  costHidden: number;
  cut: string[];
  charts: number;
}

describe.skipIf(!present)(title, () => {
  const dir = mkdtempSync(join(tmpdir(), 'llm-evals-crowd-'));
  const artifacts = join(REPO, 'test-artifacts');
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([2, 6, 20].flatMap((count) => [1400, 1920].map((width) => ({ count, width }))))(
    '$count contenders at $width px: the standings fit and show cost, every chart label in its box',
    async ({ count, width }) => {
      const snapshot = crowdSnapshot(count, { repeat: 3, weights: WEIGHTS, rude: true, twins: true });
      snapshot.trend = crowdTrend(snapshot, count === 20 ? 12 : 5);
      const file = join(dir, `crowd-${count}.html`);
      writeFileSync(file, renderHtml(snapshot));
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      try {
        await page.goto(pathToFileURL(file).href);
        const m = await page.evaluate<Measured>(MEASURE);
        const name = `report-${count}-contenders-${width}px`;
        await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
        for (const section of ['trend', 'value', 'overall']) {
          await page.locator(`#${section}`).screenshot({ path: join(artifacts, `${name}-${section}.png`) });
        }
        // Global, per dataset (2) and per variant (3): six tables, each with its cost column in sight.
        expect(m.tables).toBe(6);
        expect(m.scrolled).toEqual([]);
        expect(m.page[0]).toBeLessThanOrEqual(m.page[1]);
        expect(m.costs).toBe(6);
        expect(m.costHidden).toBe(0);
        // A trend and two value charts per dataset, every label whole.
        expect(m.charts).toBe(5);
        expect(m.cut).toEqual([]);
      } finally {
        await page.close();
      }
    },
    60_000,
  );
});
