import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { killServer, ownServerEnv, startServer } from '../helpers/durable.ts';
import { REPO, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { HOSTILE_CASE, HOSTILE_REPLY, writeViewSuite } from './view-suite.ts';

/** Debian's Chromium, as the HTML report's browser test drives it. */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];
const present = existsSync(CHROMIUM);
const ARTIFACTS = join(REPO, 'test-artifacts');

const dirs = new TempDirs();

describe.skipIf(!present)('llm-evals view in headless Chromium', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let view: CliProcess;
  let slow: CliProcess | undefined;
  let origin: string;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    dir = dirs.inRepo('view-');
    writeViewSuite(dir, 6);
    env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `view-${Date.now()}` };
    const done = await runCli(['compare', '--no-open'], { cwd: dir, env });
    expect(done.code, done.stderr).toBe(0);
    view = startCli(['view', '--no-open', '--port', '0'], { cwd: dir, env, timeoutMs: 300_000 });
    origin = (await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
    context = await chromium.launchPersistentContext(join(dirs.os('view-profile-'), 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1400, height: 900 },
    });
    page = await context.newPage();
    page.on('console', (m) =>
      m.type() === 'error' ? problems.push(`${page.url()}: ${m.text()}`) : undefined,
    );
    page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
    page.on('dialog', (d) => void dialogs.push(d.message()));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    view?.child.kill('SIGINT');
    slow?.child.kill('SIGKILL');
    await view?.done;
    dirs.removeAll();
  });

  /** A full-page screenshot in test-artifacts/; with LLM_EVALS_README_IMAGES set, the top of the page there too. */
  const shot = async (name: string) => {
    await page.screenshot({ path: join(ARTIFACTS, `view-${name}.png`), fullPage: true });
    const readme = process.env.LLM_EVALS_README_IMAGES;
    if (readme && ['run', 'case'].includes(name))
      await page.screenshot({ path: join(REPO, readme, `view-${name}.png`) });
  };
  const project = () => `${origin}/?project=${encodeURIComponent(dir)}`;

  it('clicks runs → run → case → back, and shows a hostile reply as text, running nothing', async () => {
    await page.goto(project());
    const link = page.locator('#runs tbody tr[data-state="completed"] a').first();
    await shot('runs');
    await link.click();
    await expect.poll(() => page.locator('#overall table').count()).toBe(1);
    expect(await page.locator('h1').innerText()).toContain('viewed');
    expect(await page.locator('#errors').innerText()).toContain('not JSON');
    await shot('run');
    await page.locator('ul.cases a', { hasText: HOSTILE_CASE }).click();
    await expect.poll(() => page.locator('.side .contender').count()).toBe(2);
    expect(await page.locator('pre', { hasText: HOSTILE_REPLY }).count()).toBe(2);
    expect(await page.locator('pre').first().innerText()).toContain('<b>say</b> it back.');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    await shot('case');
    await page.goBack();
    expect(await page.locator('#overall table').count()).toBe(1);
    await page.goBack();
    expect(await page.locator('#runs').count()).toBe(1);
    expect(dialogs).toEqual([]);
  }, 60_000);

  it('answers 404 for an id that tries to leave its folder', async () => {
    for (const path of [
      '/runs/..%2f..%2fetc%2fpasswd',
      '/saved/..%2f..%2fpackage.json',
      '/assets/..%2fapp.ts',
    ]) {
      expect((await fetch(origin + path)).status, path).toBe(404);
    }
  });

  it("moves a running compare's progress without reload, then cancels it from the page", async () => {
    slow = startCli(['compare', '--no-open', '-d', 'north'], {
      cwd: dir,
      env: { ...env, CALL_DELAY_MS: '1500', LLM_EVALS_TASK_QUEUE: `view-slow-${Date.now()}` },
    });
    await page.goto(project());
    // The runs list finds the new run without a reload.
    const running = page.locator('#runs tbody tr[data-state="running"]');
    await expect.poll(() => running.count(), { timeout: 60_000 }).toBe(1);
    const runId = (await running.getAttribute('data-run'))!;
    await running.locator('a').click();
    await page.evaluate(() => ((globalThis as { kept?: number }).kept = 1));
    const count = () => page.locator('#live .run-state .count').innerText();
    const before = Number((await count()).split('/')[0]);
    await expect
      .poll(async () => Number((await count()).split('/')[0]), { timeout: 20_000 })
      .toBeGreaterThan(before);
    expect(await page.evaluate(() => (globalThis as { kept?: number }).kept)).toBe(1);
    // What does not move says what it stands on, and that more has finished since.
    const asOf = page.locator('#live .as-of');
    expect(await asOf.innerText()).toMatch(
      /^The errors, standings, value picture and cases below are as of \d\d:\d\d:\d\d UTC, over \d+ finished cases?\./,
    );
    expect(await asOf.innerText()).toMatch(
      /\d+ more cases? ha(s|ve) finished since: reload to update them\.$/,
    );
    expect(await page.locator('p.meta').innerText()).not.toMatch(/results/);
    await shot('run-live');
    page.once('dialog', (d) => void d.accept());
    await page.locator('.actions button', { hasText: 'cancel run' }).click();
    await expect
      .poll(() => page.locator('.run-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('cancelled');
    await shot('run-cancelled');
    expect(dialogs).toEqual([`Cancel run ${runId}? No call starts from then on.`]);
    const status = await runCli(['status', runId], { cwd: dir, env });
    expect(status.stdout).toMatch(new RegExp(`run ${runId} \\(viewed\\): cancelled`));
    await slow.done;
  }, 120_000);

  it("filters the runs list with its selects, each run's counts filled in without reload", async () => {
    const lines: string[] = [];
    const asked = (r: { url(): string }) =>
      r.url().includes('/fragment/row/') ? void lines.push(r.url()) : undefined;
    page.on('request', asked);
    await page.goto(`${origin}/`);
    // The lines come from visibility at once; the script fetches their counts line by line.
    const rows = page.locator('#runs tbody tr[data-run]');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => page.locator('#runs tbody tr[data-counting]').count(), { timeout: 30_000 })
      .toBe(0);
    page.off('request', asked);
    // Runs counted before (kept, being closed) come whole; the one cancelled in the test before is fetched.
    expect(lines.length).toBeGreaterThanOrEqual(1);
    await page.locator('select[name="project"]').selectOption(dir);
    await page.locator('select[name="suite"]').selectOption('viewed');
    await page.locator('select[name="state"]').selectOption('cancelled');
    await page.locator('form.filter button').click();
    await page.waitForURL(/state=cancelled/);
    const query = new URL(page.url()).searchParams;
    expect([query.get('project'), query.get('suite'), query.get('state')]).toEqual([
      dir,
      'viewed',
      'cancelled',
    ]);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-state')).toBe('cancelled');
    await expect.poll(() => rows.first().locator('.count').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.locator('select[name="state"]').inputValue()).toBe('cancelled');
    await shot('runs-filtered');
    await page.locator('select[name="state"]').selectOption('completed');
    await page.locator('form.filter button').click();
    await page.waitForURL(/state=completed/);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-state')).toBe('completed');
    // A schedule that started no run here: nothing matches, said plainly.
    await page.goto(
      `${origin}/?project=${encodeURIComponent(dir)}&schedule=${encodeURIComponent('llm-evals/none/x')}`,
    );
    expect(await page.locator('#runs tbody').innerText()).toContain('no runs match');
  }, 90_000);

  /** Compares a new project of the viewed suite with these models and cases; opens its run's page. */
  const compareAndOpen = async (name: string, cases: number, models: string[]) => {
    const other = dirs.inRepo(`view-${name}-`);
    writeViewSuite(other, cases, models);
    const done = await runCli(['compare', '--no-open'], {
      cwd: other,
      env: { ...env, LLM_EVALS_TASK_QUEUE: `view-${name}-${Date.now()}` },
    });
    expect(done.code, done.stderr).toBe(0);
    await page.goto(`${origin}/?project=${encodeURIComponent(other)}`);
    await page.locator('#runs tbody tr[data-state="completed"] a').first().click();
    await expect.poll(() => page.locator('#overall table').count()).toBe(1);
  };

  it('shows all four contenders of a case at 1,400 px, none cut off at the edge', async () => {
    await compareAndOpen('four', 2, ['alpha', 'beta', 'gamma', 'delta']);
    await shot('run-four');
    await page.locator('ul.cases a').first().click();
    const sides = page.locator('.side .contender');
    await expect.poll(() => sides.count()).toBe(4);
    await shot('case-four');
    const width = page.viewportSize()!.width;
    for (const side of await sides.all()) {
      const box = (await side.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
  }, 120_000);

  it('says one contender, one case, one result: no "1 contenders" on the run or case page', async () => {
    await compareAndOpen('one', 1, ['alpha']);
    const plural = /\b1 (contenders|results|cases|errors|runs|calls|replies)\b/;
    const run = await page.locator('body').innerText();
    expect(run).toContain('1 contender · 1 result');
    expect(run).toContain('1 case · page 1 of 1');
    expect(run).not.toMatch(plural);
    await page.locator('ul.cases a').first().click();
    await expect.poll(() => page.locator('.side .contender').count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toMatch(plural);
  }, 120_000);

  it('logged no console error on any page', () => {
    expect(problems).toEqual([]);
  });
});

describe.skipIf(!present)(
  'the view in headless Chromium while its Temporal server stops and comes back',
  () => {
    it('an open runs list turns into the saved snapshots with the banner, which says when Temporal answers again', async () => {
      const dir = dirs.inRepo('view-outage-');
      writeViewSuite(dir, 2);
      const env = await ownServerEnv(dir);
      await startServer(dir, env);
      const view = startCli(['view', '--no-open', '--port', '0'], { cwd: dir, env, timeoutMs: 120_000 });
      const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
      try {
        const origin = (await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        await page.goto(`${origin}/`);
        expect(await page.locator('h1').innerText()).toBe('Runs');
        killServer(dir);
        // The list's refresh finds the server gone and reloads the page, which shows what can be shown, and why.
        await page.waitForURL(`${origin}/saved`, { timeout: 30_000 });
        const banner = page.locator('.banner');
        expect(await banner.innerText()).toContain('Temporal is not running');
        await startServer(dir, env);
        await expect
          .poll(() => banner.innerText(), { timeout: 30_000 })
          .toBe('Temporal answers again: see every run.');
        await banner.locator('a').click();
        await page.waitForURL(`${origin}/`);
        expect(await page.locator('h1').innerText()).toBe('Runs');
        expect(await page.locator('.banner').count()).toBe(0);
      } finally {
        await browser.close();
        view.child.kill('SIGINT');
        await view.done;
        await runCli(['server', 'stop', '--force'], { cwd: dir, env });
      }
    }, 120_000);
  },
);
