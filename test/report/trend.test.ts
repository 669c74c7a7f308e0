import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffRuns, digestOf, type Trend } from '../../src/core/run-change.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { renderChange } from '../../src/report/change.ts';
import { renderReport } from '../../src/report/report-formats.ts';
import { renderHtml } from '../../src/report/html.ts';
import { trendSvg } from '../../src/report/trend-chart.ts';
import { stripAnsi } from '../../src/report/text-width.ts';
import { REPO } from '../helpers/suite-dir.ts';
import { snapshotFixture } from './fixture.ts';

/** A scheduled run's snapshot: the fixture, its change since an earlier run with lower scores, and a 4-run trend. */
function scheduledSnapshot(): Snapshot {
  const now = snapshotFixture();
  const then = snapshotFixture();
  then.runId = 'earlier';
  then.results = then.results.map((r) => ({ ...r, score: r.score === null ? null : r.score * 0.9 }));
  const [a, b, c] = now.contenders.map((x) => x.key);
  const point = (score: number | null, d = 0) => [
    { contender: a!, dataset: 'north', score: score === null ? null : score + d },
    { contender: b!, dataset: 'north', score: 0.5 + d },
    { contender: c!, dataset: 'south', score: 0.7 },
  ];
  // Intervals for alpha (one reaching 100 %) and beta; gamma's runs have none.
  const intervals = (low: number, high: number) => [
    { contender: a!, dataset: 'north', ci95: [low, high] as [number, number] },
    { contender: b!, dataset: 'north', ci95: [0.35, 0.65] as [number, number] },
  ];
  const trend: Trend = {
    primary: 'score',
    contenders: now.contenders,
    runs: [
      {
        runId: 'r1',
        at: '2026-11-01T03:00:00.000Z',
        state: 'completed',
        scores: point(0.9),
        intervals: intervals(0.8, 1),
      },
      { runId: 'r2', at: '2026-11-08T03:00:00.000Z', state: 'completed', scores: point(null) },
      {
        runId: 'r3',
        at: '2026-11-15T03:00:00.000Z',
        state: 'completed',
        scores: point(0.8, 0.1),
        intervals: intervals(0.75, 0.97),
      },
      {
        runId: 'r4',
        at: '2026-11-22T03:00:00.000Z',
        state: 'regressed',
        scores: point(0.5),
        intervals: intervals(0.3, 0.7),
      },
    ],
  };
  return {
    ...now,
    status: 'regressed',
    change: diffRuns(digestOf(then), digestOf(now)),
    regression: ['fake/alpha on north: score 90.0% → 50.0%, down 40.0 points (max drop 5)'],
    trend,
  };
}

describe('the trend picture and the change, as text (pure)', () => {
  it("breaks a series' line where a run has no score, and draws one series per contender and dataset", () => {
    const svg = trendSvg(scheduledSnapshot().trend!);
    expect(svg.match(/<g class="series/g)).toHaveLength(3);
    // alpha's line: r1, then a gap at r2, then r3 → r4: two pens down.
    const alpha = /<g class="series c0"[^]*?<\/g>/.exec(svg)![0];
    expect(/class="trend-line" d="([^"]*)"/.exec(alpha)![1]!.match(/M/g)).toHaveLength(2);
    expect(alpha.match(/<circle/g)).toHaveLength(3);
    expect(svg).toContain('data-runs="4"');
  });

  it("draws each point's interval as a whisker through its dot, from the high end to the low, within the plot", () => {
    const svg = trendSvg(scheduledSnapshot().trend!);
    // The plot's y: 16 px from the top (100 %) to 256 (0 %), so toY(v) = 16 + (1 − v)·240.
    const toY = (v: number) => 16 + (1 - v) * 240;
    const series = (colour: string) => new RegExp(`<g class="series ${colour}"[^]*?</g>`).exec(svg)![0];
    const whiskers = (group: string) =>
      [...group.matchAll(/class="whisker" d="M([\d.]+) ([\d.]+)V([\d.]+)/g)].map((m) =>
        m.slice(1).map(Number),
      );
    const dots = (group: string) =>
      [...group.matchAll(/<circle class="dot" r="4" cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) =>
        m.slice(1).map(Number),
      );
    // alpha: whiskers at r1, r3, r4 (none at r2, which has no score); beta: all four runs but r2's interval is absent.
    const alpha = series('c0');
    expect(whiskers(alpha)).toHaveLength(3);
    expect(whiskers(series('c1'))).toHaveLength(3);
    // gamma has no interval: no whisker.
    expect(whiskers(series('c2'))).toEqual([]);
    whiskers(alpha).forEach(([x, top, foot], i) => {
      const [cx, cy] = dots(alpha)[i]!;
      // Set at most 3 px aside, so two series' whiskers at one run stay apart, and still within the dot (r = 4).
      expect(Math.abs(x! - cx!)).toBeLessThanOrEqual(3);
      expect(top!).toBeLessThanOrEqual(cy!);
      expect(foot!).toBeGreaterThanOrEqual(cy!);
      expect(top!).toBeGreaterThanOrEqual(16);
      expect(foot!).toBeLessThanOrEqual(256);
    });
    // r4's alpha: 30 %–70 %, moved with its dot, which beta's 50 % there set 1.5 px apart.
    const [, top4, foot4] = whiskers(alpha)[2]!;
    const shift = dots(alpha)[2]![1]! - toY(0.5);
    expect(Math.abs(shift)).toBeCloseTo(1.5, 1);
    expect(top4).toBeCloseTo(toY(0.7) + shift, 1);
    expect(foot4).toBeCloseTo(toY(0.3) + shift, 1);
    expect(alpha).toContain('50.0%, 95 % interval 30.0%–70.0% in r4');
  });

  it('with --repeat and no interval of its own, a point takes the t-interval of its repeats', () => {
    const { trend } = scheduledSnapshot();
    const [a] = trend!.contenders;
    const repeated = {
      ...trend!,
      contenders: [1, 2].map((k) => ({ ...a!, key: `${a!.key} #${k}`, repeat: k, seed: k })),
    };
    repeated.runs = repeated.runs.slice(0, 2).map((run, i) => ({
      ...run,
      intervals: undefined,
      scores: [0.6, 0.8].map((score, k) => ({
        contender: `${a!.key} #${k + 1}`,
        dataset: 'north',
        score: score + i / 10,
      })),
    }));
    const svg = trendSvg(repeated);
    // Two repeats at 0.6 and 0.8: mean 0.7, t(0.975, 1) = 12.706, sd/√2 = 0.1: 0.7 ± 1.27 (-57.1 %–197.1 %), said
    // and drawn within what a score can be.
    expect(svg.match(/class="whisker"/g)).toHaveLength(2);
    expect(svg).toContain('70.0%, 95 % interval 0.0%–100.0% in r1');
    expect(svg).toMatch(/class="whisker" d="M[\d.]+ 16\.0V256\.0/);
  });

  it('the TUI report of a scheduled run ends with its change and why it regressed', () => {
    const text = stripAnsi(renderReport('tui', scheduledSnapshot(), { width: 200 }));
    expect(text).toContain('change since earlier');
    expect(text).toMatch(/regressed:\n {2}fake\/alpha on north/);
    expect(stripAnsi(renderChange(scheduledSnapshot().change!))).toContain('same contenders and cases');
  });
});

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`test/report/trend.test.ts: ${CHROMIUM} is absent; apt-get install -y chromium to run it`);

/** The parts of a Rect the geometry checks read (the test compiles without the DOM's types). */
type Rect = {
  x: number;
  y: number;
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
};

describe.skipIf(!present)('the trend picture in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'llm-evals-trend-'));
  const problems: string[] = [];
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(scheduledSnapshot()));
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
      viewport: { width: 1280, height: 900 },
    });
    page = await context.newPage();
    page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) =>
      r.url().startsWith('file:') ? undefined : problems.push(`network: ${r.url()}`),
    );
    await page.goto(pathToFileURL(file).href);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws each series as a visible line across the runs, with no console error and no network', async () => {
    const svg = page.locator('#trend svg.trend');
    expect(await svg.isVisible()).toBe(true);
    const box = await svg.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    const lines = page.locator('#trend path.trend-line');
    expect(await lines.count()).toBe(3);
    for (let i = 0; i < 3; i++) {
      const length = await lines.nth(i).evaluate((p: { getTotalLength(): number }) => p.getTotalLength());
      expect(length).toBeGreaterThan(50);
      const stroke = await lines
        .nth(i)
        .evaluate(
          (p: { ownerDocument: { defaultView: { getComputedStyle(e: unknown): { stroke: string } } } }) =>
            p.ownerDocument.defaultView.getComputedStyle(p).stroke,
        );
      expect(stroke).not.toBe('none');
    }
    // Higher scores sit higher: alpha's 90% at r1 is above its 50% at r4.
    const ys = await page
      .locator('#trend g.series.c0 circle')
      .evaluateAll((cs: { getAttribute(name: string): string | null }[]) =>
        cs.map((c) => Number(c.getAttribute('cy'))),
      );
    expect(ys[0]).toBeLessThan(ys[2]!);
    expect(await page.locator('#change table.change tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#change .banner.regressed').textContent()).toContain('down 40.0 points');
    mkdirSync(join(REPO, 'test-artifacts'), { recursive: true });
    await page.locator('#trend').screenshot({ path: join(REPO, 'test-artifacts/trend.png') });
    expect(problems).toEqual([]);
  });

  it("draws each point's interval as a visible whisker inside the plot, through its dot", async () => {
    const found = await page.locator('#trend svg.trend').evaluate(
      (svg: {
        getBoundingClientRect(): Rect;
        querySelectorAll(s: string): ArrayLike<{
          getBoundingClientRect(): Rect;
          ownerDocument: {
            defaultView: { getComputedStyle(e: unknown): { stroke: string; opacity: string } };
          };
          parentElement: { querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): Rect }> };
        }>;
      }) => {
        const box = svg.getBoundingClientRect();
        return Array.from(svg.querySelectorAll('path.whisker')).map((w) => {
          const r = w.getBoundingClientRect();
          const style = w.ownerDocument.defaultView.getComputedStyle(w);
          const dots = Array.from(w.parentElement.querySelectorAll('circle.dot')).map((d) => {
            const c = d.getBoundingClientRect();
            return { x: c.x + c.width / 2, y: c.y + c.height / 2 };
          });
          return {
            top: r.top - box.top,
            bottom: r.bottom - box.top,
            left: r.left - box.left,
            right: r.right - box.left,
            width: box.width,
            height: box.height,
            stroke: style.stroke,
            opacity: Number(style.opacity),
            through: dots.some((d) => d.x >= r.left && d.x <= r.right && d.y >= r.top && d.y <= r.bottom),
          };
        });
      },
    );
    expect(found).toHaveLength(6);
    for (const w of found) {
      // Within the plot (16 px from the top, 44 from the bottom of a 300 px picture; the cap's stroke aside).
      expect(w.top).toBeGreaterThanOrEqual(16 - 1.5);
      expect(w.bottom).toBeLessThanOrEqual(w.height - 44 + 1.5);
      expect(w.left).toBeGreaterThan(60);
      expect(w.right).toBeLessThan(w.width - 30);
      expect(w.bottom - w.top).toBeGreaterThan(10);
      expect(w.stroke).not.toBe('none');
      expect(w.opacity).toBeGreaterThan(0.3);
      expect(w.through).toBe(true);
    }
    await page.locator('#trend').screenshot({ path: join(REPO, 'test-artifacts/trend-intervals.png') });
    expect(problems).toEqual([]);
  });
});
