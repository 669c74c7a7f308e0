import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.ts';
import { safeId } from '../../src/report/html-escape.ts';
import { REPO } from '../helpers/suite-dir.ts';
import { HOSTILE_REPLY, snapshotFixture } from './fixture.ts';

/** Debian's Chromium (`apt-get install -y chromium`); Playwright never downloads a browser of its own here. */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const present = existsSync(CHROMIUM);
const title = present
  ? 'the HTML report in headless Chromium'
  : `the HTML report in headless Chromium: SKIPPED, ${CHROMIUM} is absent (apt-get install -y chromium)`;
if (!present)
  console.warn(`test/report/browser.test.ts: ${CHROMIUM} is absent; apt-get install -y chromium to run it`);

describe.skipIf(!present)(title, () => {
  const dir = mkdtempSync(join(tmpdir(), 'llm-evals-browser-'));
  const problems: string[] = [];
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(snapshotFixture({ score: 5, exact: 2, errors: -3, cost: -2 })));
    // A fresh profile each run: nothing from an earlier run (or the machine) leaks in.
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 900 },
    });
    page = await context.newPage();
    page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(pathToFileURL(file).href);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const column = (table: string, index: number) =>
    page.locator(`${table} tbody tr td:nth-child(${index + 1})`).allTextContents();

  it('sorts a table by a clicked header, then the other way', async () => {
    const table = '#overall table';
    const headers = await page.locator(`${table} thead th`).allTextContents();
    const cost = headers.indexOf('cost');
    const before = await column(table, 1);
    await page.locator(`${table} thead th`).nth(cost).click();
    const descending = await column(table, cost);
    expect(await column(table, 1)).not.toEqual(before);
    expect(descending).toEqual(['$0.0160', '$0.0060', '$0.0020']);
    await page.locator(`${table} thead th`).nth(cost).click();
    expect(await column(table, cost)).toEqual(['$0.0020', '$0.0060', '$0.0160']);
    expect(await page.locator(`${table} thead th`).nth(cost).getAttribute('aria-sort')).toBe('ascending');
  });

  it('opens a case to show its input, expected answer, replies and diagnostics', async () => {
    const kase = page.locator(`#case-${safeId('north/vague')}`);
    expect(await kase.getAttribute('open')).toBeNull();
    await kase.locator('summary').click();
    expect(await kase.getAttribute('open')).toBe('');
    await expect.poll(() => kase.locator('pre').first().isVisible()).toBe(true);
    const text = await kase.innerText();
    expect(text).toContain('It might be <blue>, or "teal" & more.');
    expect(text).toContain('"got": "<b>red</b>"');
  });

  it('shows a hostile reply as text and never runs it', async () => {
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('pre', { hasText: HOSTILE_REPLY }).count()).toBe(1);
    expect(await page.locator('img').count()).toBe(0);
  });

  /** Each located element's `data-<name>` attributes, read one by one (no DOM types in this project). */
  const dataOf = async (located: Locator, names: readonly string[]) => {
    const all: Record<string, string | null>[] = [];
    for (const element of await located.all()) {
      const attrs = await Promise.all(names.map((n) => element.getAttribute(`data-${n}`)));
      all.push(Object.fromEntries(names.map((n, i) => [n, attrs[i] ?? null])));
    }
    return all;
  };

  it('draws each dataset’s value picture with the numbers its standings table shows', async () => {
    const datasets = await page.locator('#datasets h3').allTextContents();
    expect(datasets).toEqual(['north', 'south']);
    for (const [d, dataset] of datasets.entries()) {
      const table = page.locator('#datasets table').nth(d);
      const headers = await table.locator('thead th').allTextContents();
      const rows: (string | null)[][] = [];
      for (const tr of await table.locator('tbody tr').all()) {
        rows.push((await dataOf(tr.locator('td'), ['v'])).map((cell) => cell.v ?? null));
      }
      const row = (n: string | null) => rows.find((r) => r[0] === n)!;
      for (const axis of ['cost', 'p95']) {
        const chart = page.locator(`#value .value-chart[data-dataset="${dataset}"] svg[data-axis="${axis}"]`);
        expect((await chart.boundingBox())?.width).toBeGreaterThan(200);
        const ranking = (await chart.getAttribute('data-ranking')) ?? '';
        const points = await dataOf(chart.locator('g.pt'), ['n', 'id', 'effort', 'temp', 'x', 'y']);
        expect(points).toHaveLength(rows.length);
        for (const p of points) {
          const cells = row(p.n ?? null);
          expect(cells[headers.indexOf('model')]).toBe(p.id);
          expect(cells[headers.indexOf('effort')]).toBe(p.effort);
          expect(cells[headers.indexOf('temp')] ?? '').toBe(p.temp);
          expect(cells[headers.indexOf(ranking)]).toBe(p.y);
          expect(cells[headers.indexOf(axis)]).toBe(p.x);
        }
      }
    }
  });

  it('logs no console error, and leaves a screenshot in test-artifacts/report.png', async () => {
    mkdirSync(join(REPO, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(REPO, 'test-artifacts/report.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
