import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { BatchServer, lineUserText, type BatchAnswer, type BatchLine } from '../helpers/batch-server.ts';
import { runCliLong, startCli, type CliProcess } from '../helpers/cli.ts';
import { chromium } from 'playwright-core';
import { REPO, TempDirs } from '../helpers/suite-dir.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

/** The case no batch answers: its two rounds' requests fail, so the pool calls it. */
const UNBATCHED = 'bulk/003';

/** An endpoint with a batch API and chat completions, priced as in the batch tests. */
const SECTION = (url: string) => `
openai:
  base_url: ${url}
  api_key_env: BATCH_KEY
  prices: { input: 1000, output: 2000 }
  batch: true
  models: [gpt-x]
`;

describe("the case page says where a reply came from: this run's batch, the reply cache or a call", () => {
  let failed = 0;
  const server = new BatchServer({
    delayMs: 300,
    chat: true,
    answer: (line: BatchLine): BatchAnswer =>
      lineUserText(line).includes(UNBATCHED) && failed++ < 2
        ? { status: 500, message: 'no reply in this batch' }
        : { text: lineUserText(line), usage: { prompt_tokens: 20, completion_tokens: 10 } },
  });
  let project: string;
  let view: CliProcess;
  let origin: string;
  let batched: Snapshot;
  let cached: Snapshot;

  beforeAll(async () => {
    const url = await server.start();
    project = providerSuite(dirs, SECTION(url), numberedCases(4));
    // One reply cache for both runs, so the second finds the first's replies.
    const env = cliEnv(dirs.os(), {
      BATCH_KEY: 'sk-origin-test',
      LLM_EVALS_BATCH_POLL: '0.5,2',
      LLM_EVALS_CACHE_DIR: join(dirs.os(), 'replies'),
    });
    const first = await runCliLong(['compare', '--batch', '--display', 'none', '--no-open'], {
      cwd: project,
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    batched = savedSnapshot(project).snapshot;
    rmSync(join(project, 'evals/results'), { recursive: true });
    const second = await runCliLong(['compare', '--display', 'none', '--no-open'], { cwd: project, env });
    expect(second.code, second.stderr).toBe(0);
    cached = savedSnapshot(project).snapshot;
    view = startCli(['view', '--no-open', '--port', '0'], { cwd: project, env });
    [, origin] = (await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//)) as [string, string];
  }, 240_000);

  afterAll(async () => {
    view?.child.kill('SIGINT');
    await view?.done;
    await server.stop();
  });

  /** The reply's origin as the run's case page shows it: its data-source and its words. */
  async function said(snapshot: Snapshot, caseKey: string): Promise<[string, string]> {
    const url = `${origin}/runs/${snapshot.runId}/case?key=${encodeURIComponent(caseKey)}`;
    const page = await (await fetch(url)).text();
    const found = /<p class="note source" data-source="(\w+)">([^<]*)<\/p>/.exec(page);
    expect(found, page).not.toBeNull();
    return [found![1]!, found![2]!];
  }

  const keyOf = (snapshot: Snapshot, part: string) =>
    snapshot.results.find((r) => r.caseKey.includes(part))!.caseKey;

  it("names this run's batch, at the batch price, for a reply the batch brought, and a call for the one it did not", async () => {
    const [first] = server.batches;
    expect(server.batches.length).toBe(2);
    expect(await said(batched, keyOf(batched, 'bulk/001'))).toEqual([
      'batch',
      `from batch ${first!.id} of this run (at the batch price)`,
    ]);
    expect(server.chatCalls).toBe(1);
    expect(await said(batched, keyOf(batched, UNBATCHED))).toEqual(['call', 'called for this run']);
  });

  // Debian's Chromium, as the browser test drives it: the page as a user sees it, kept in test-artifacts/.
  it.runIf(existsSync('/usr/bin/chromium'))('draws the batch case page in Chromium', async () => {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const key = keyOf(batched, 'bulk/001');
      await page.goto(`${origin}/runs/${batched.runId}/case?key=${encodeURIComponent(key)}`);
      expect(await page.locator('.source').innerText()).toMatch(/^from batch \S+ of this run/);
      mkdirSync(join(REPO, 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(REPO, 'test-artifacts', 'view-case-batch.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });

  it('names the run that paid for a reply found in the reply cache, by batch or by call', async () => {
    for (const part of ['bulk/001', UNBATCHED]) {
      const [source, words] = await said(cached, keyOf(cached, part));
      expect(source).toBe('cache');
      expect(words).toMatch(
        new RegExp(`^from the reply cache \\(run ${batched.runId}\\): 1 reply, no call made`),
      );
    }
    expect(server.chatCalls).toBe(1);
  });
});
