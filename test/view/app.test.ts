import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffRuns, digestOf } from '../../src/core/run-change.ts';
import { createViewApp, type ViewOptions } from '../../src/view/app.ts';
import type { RunRow, RunView, ViewSource } from '../../src/view/model.ts';
import { countedProgress } from '../../src/view/progress.ts';
import { SavedSnapshots } from '../../src/view/saved.ts';
import { HOSTILE_REPLY, snapshotFixture } from '../report/fixture.ts';
import { TempDirs } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const ORIGIN = 'http://127.0.0.1:7357';
const snapshot = { ...snapshotFixture(), runId: 'r-1', status: 'partial' as const };
const RUN: RunView = {
  snapshot,
  state: 'running',
  experiments: countedProgress(snapshot, 'running', false),
  live: true,
  closed: false,
};
const ROW: RunRow = {
  runId: 'r-1',
  suite: '<script>alert(1)</script>',
  project: '/p/<img src=x onerror=alert(1)>',
  state: 'running',
  done: 3,
  total: 12,
  errors: 1,
  costUsd: 0.01,
  duration: 4,
  startedAt: '2026-01-01T00:00:00.000Z',
  best: { name: HOSTILE_REPLY, value: '90.0% score' },
};

const FACETS = {
  projects: [ROW.project, '/p/other'],
  suites: ['viewed', 'other'],
  schedules: [{ id: 'llm-evals/p-1/nightly', name: 'nightly' }],
};

/** The line visibility alone gives of ROW: no counts yet. */
const { done: _d, total: _t, errors: _e, costUsd: _c, best: _b, ...LINE } = ROW;

/**
 * A source with one running run that records what it was asked to change, and each runs list it was asked for (its
 * filter, and whether counted); uncounted, it answers with the run's line alone.
 */
function fakeSource(changes: string[], asked: string[] = []): ViewSource {
  return {
    runs: (filter, count = true) => {
      asked.push(`${JSON.stringify(filter)} ${count ? 'counted' : 'listed'}`);
      return Promise.resolve({ rows: [count ? ROW : LINE], more: false, pageSize: 50, facets: FACETS });
    },
    row: (id) => Promise.resolve(id === 'r-1' ? ROW : undefined),
    run: (id) => Promise.resolve(id === 'r-1' ? RUN : undefined),
    live: (id) => Promise.resolve(id === 'r-1' ? RUN : undefined),
    cancel: (id) =>
      Promise.resolve(void changes.push(`cancel ${id}`)).then(() => ({
        how: 'terminated' as const,
        clauses: ['cancelled batch batch_1 at openai'],
        problems: ['batch batch_2 at <acme> still runs: ACME_KEY is not set here'],
      })),
    answer: (id, goOn) => Promise.resolve(void changes.push(`${goOn ? 'continue' : 'stop'} ${id}`)),
    diff: (a, b) => {
      if (b !== 'r-1') return Promise.reject(Object.assign(new Error(`no run "${b}"`), { exitCode: 2 }));
      const before = { ...snapshotFixture({ exact: 1 }), runId: a };
      return Promise.resolve(diffRuns(digestOf(before), digestOf(snapshot)));
    },
    schedule: () => Promise.resolve(undefined),
    reachable: () => Promise.resolve(true),
  };
}

function app(options: Partial<ViewOptions> = {}, changes: string[] = [], asked: string[] = []) {
  const made = createViewApp({
    source: fakeSource(changes, asked),
    saved: new SavedSnapshots(undefined),
    csrf: 'csrf-token-123',
    hosts: ['127.0.0.1:7357'],
    ...options,
  });
  // A browser sends the Host it reached; app.request sends none unless told.
  return (path: string, init: RequestInit = {}) =>
    made.request(ORIGIN + path, {
      ...init,
      headers: { host: '127.0.0.1:7357', ...(init.headers as Record<string, string> | undefined) },
    });
}

const post = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...headers },
  body,
});

describe('the view app', () => {
  it.each(['/', '/runs/r-1', `/runs/r-1/case?key=${encodeURIComponent('north/clear')}`, '/saved'])(
    '%s: a CSP forbidding inline script, and no inline script or unescaped markup from the run',
    async (path) => {
      const response = await app()(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self';");
      const html = await response.text();
      expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<script>alert');
    },
  );

  it.each([
    '/runs/..%2f..%2fetc%2fpasswd',
    '/runs/a..%2fb',
    '/runs/r-2',
    '/fragment/row/..%2f..%2fetc%2fpasswd',
    '/runs/r-1/case?key=..%2f..%2fpackage.json',
    '/saved/..%2fpackage.json',
    '/assets/..%2fapp.ts',
    '/assets/constructor',
  ])('%s: 404', async (path) => {
    expect((await app()(path)).status).toBe(404);
  });

  it('refuses a change without the CSRF token, or from another origin, and makes it with both', async () => {
    const changes: string[] = [];
    const request = app({}, changes);
    expect((await request('/runs/r-1/cancel', post('do=cancel'))).status).toBe(403);
    expect((await request('/runs/r-1/cancel', post('csrf=wrong'))).status).toBe(403);
    const elsewhere = post('csrf=csrf-token-123', { origin: 'http://evil.test' });
    expect((await request('/runs/r-1/cancel', elsewhere)).status).toBe(403);
    expect(changes).toEqual([]);
    const made = await request('/runs/r-1/cancel', post('csrf=csrf-token-123'));
    expect([made.status, made.headers.get('location')]).toEqual([303, '/runs/r-1']);
    await request('/runs/r-1/stop', post('csrf=csrf-token-123'));
    expect(changes).toEqual(['cancel r-1', 'stop r-1']);
    expect((await request('/runs/r-1/cancel', { method: 'GET' })).status).toBe(404);
  });

  it("says on the run's page, once, how the cancel ended the run and what became of its batches", async () => {
    const request = app({}, []);
    await request('/runs/r-1/cancel', post('csrf=csrf-token-123'));
    const page = await (await request('/runs/r-1')).text();
    expect(page).toContain(
      '<p class="banner">cancelled run r-1: no worker closed it, so Temporal ended it; cancelled batch batch_1 at openai</p>',
    );
    expect(page).toContain(
      '<p class="banner problem">batch batch_2 at &lt;acme&gt; still runs: ACME_KEY is not set here</p>',
    );
    expect(await (await request('/runs/r-1')).text()).not.toContain('banner');
  });

  it('diffs two runs as llm-evals diff does, and says plainly when one is unknown', async () => {
    const page = await (await app()('/diff?a=r-0&b=r-1')).text();
    expect(page).toContain('href="/runs/r-0"');
    expect(page).toMatch(/<table/);
    const unknown = await app()('/diff?a=r-0&b=r-9');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('no run &quot;r-9&quot;');
    expect((await app()('/diff?a=..%2fx&b=r-1')).status).toBe(404);
    expect((await app()('/schedule?project=%2Fp&name=weekly')).status).toBe(404);
  });

  it('answers another Host with 421 (DNS rebinding)', async () => {
    expect((await app()('/', { headers: { host: 'evil.test:7357' } })).status).toBe(421);
  });

  it('asks for the token when one is set: once in the URL, then as a cookie', async () => {
    const request = app({ token: 'a-token-of-enough-length', hosts: undefined });
    expect((await request('/')).status).toBe(401);
    expect((await request('/?token=wrong')).status).toBe(401);
    const first = await request('/?token=a-token-of-enough-length&state=running');
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/?state=running');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toContain('HttpOnly');
    const again = await request('/', { headers: { cookie: cookie.split(';')[0]! } });
    expect(again.status).toBe(200);
  });

  it("shows the run's live progress and, while it runs, the cancel button with the CSRF token", async () => {
    const html = await (await app()('/runs/r-1')).text();
    // The page says what its standings were drawn from; its live part, asked with that, says how much finished since.
    const src = /data-live-src="(\/runs\/r-1\/live\?at=[^"]+&amp;done=\d+)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    expect(html).toMatch(/as of \d\d:\d\d:\d\d UTC, over \d+ finished cases\./);
    expect(html).toMatch(/<form method="post" action="\/runs\/r-1\/cancel" data-confirm="[^"]+">/);
    expect(html).toContain('name="csrf" value="csrf-token-123"');
    const live = await app()(src!.replace('&amp;', '&').replace(/done=\d+/, 'done=1'));
    expect(live.headers.get('x-live')).toBe('1');
    expect(await live.text()).toMatch(
      /over 1 finished case\. \d+ more cases have finished since: <a href="\/runs\/r-1">reload<\/a>/,
    );
  });

  it("says a running run's case page is as of a time, with a reload link; a closed run's not", async () => {
    const running = await (await app()(`/runs/r-1/case?key=${encodeURIComponent('north/clear')}`)).text();
    expect(running).toMatch(
      /The run goes on: these replies are as of \d\d:\d\d:\d\d UTC; <a href="\/runs\/r-1\/case\?key=north%2Fclear">reload<\/a>/,
    );
    const closed = { ...fakeSource([]), run: () => Promise.resolve({ ...RUN, closed: true }) };
    const done = await (await app({ source: closed })(`/runs/r-1/case?key=north%2Fclear`)).text();
    expect(done).not.toContain('as of');
  });

  it('opens a saved snapshot read-only, labelled, by a name its folder lists', async () => {
    const dir = join(dirs.os('view-saved-'), 'results');
    mkdirSync(dir);
    writeFileSync(join(dir, 'r-1.json'), JSON.stringify({ ...snapshot, status: 'completed' }));
    writeFileSync(join(dir, 'notes.txt'), 'not a snapshot');
    const request = app({
      source: undefined,
      saved: new SavedSnapshots(dir),
      notice: 'Temporal is not running',
    });
    expect((await request('/')).headers.get('location')).toBe('/saved');
    const list = await (await request('/saved')).text();
    expect(list).toContain('href="/saved/r-1.json"');
    expect(list).not.toContain('notes.txt');
    const page = await (await request('/saved/r-1.json')).text();
    expect(page).toContain('Saved snapshot r-1.json, read-only');
    expect(page).toContain('Temporal is not running');
    expect(page).not.toContain('<form method="post"');
    expect((await request('/saved/notes.txt')).status).toBe(404);
    expect((await request('/runs/r-1')).headers.get('location')).toBe('/saved');
    const live = await request('/runs/r-1/live');
    expect([live.status, live.headers.get('x-reload')]).toEqual([503, '1']);
  });

  it('goes back to the saved snapshots, with the notice, when Temporal stops answering, and to Temporal once back', async () => {
    let up = true;
    const lost: string[] = [];
    const failing: ViewSource = {
      ...fakeSource([]),
      runs: () =>
        up ? fakeSource([]).runs({ page: 0 }) : Promise.reject(new Error('Failed to list workflows')),
      run: () => (up ? Promise.resolve(RUN) : Promise.reject(new Error('Failed to read'))),
      reachable: () => Promise.resolve(up),
    };
    const request = app({
      source: failing,
      notice: 'Temporal is not running',
      relink: () => Promise.resolve(up ? failing : undefined),
      lost: () => void lost.push('lost'),
    });
    expect(await (await request('/')).text()).not.toContain('Temporal is not running');
    up = false;
    const again = await request('/?state=running');
    expect([again.status, again.headers.get('location')]).toEqual([303, '/?state=running']);
    expect(lost).toEqual(['lost']);
    expect((await request('/?state=running')).headers.get('location')).toBe('/saved');
    expect(await (await request('/saved')).text()).toContain(
      '<p class="banner" data-live-src="/fragment/linked" data-once>Temporal is not running</p>',
    );
    expect((await request('/runs/r-1')).headers.get('location')).toBe('/saved');
    up = true;
    // A request that hangs on a server gone is answered once the view finds it gone, in seconds.
    const hanging: ViewSource = { ...failing, run: () => new Promise<undefined>(() => undefined) };
    const slow = app({
      source: hanging,
      notice: 'Temporal is not running',
      relink: () => Promise.resolve(undefined),
    });
    up = false;
    const asked = Date.now();
    expect((await slow('/runs/r-1')).headers.get('location')).toBe('/runs/r-1');
    expect(Date.now() - asked).toBeLessThan(5_000);
    up = true;
    const back = await (await request('/')).text();
    expect(back).toContain('<h1>Runs');
    expect(back).not.toContain('Temporal is not running');
  });

  it('answers the runs list from visibility and has the script fetch the counted rows, filter and all', async () => {
    const asked: string[] = [];
    const request = app({}, [], asked);
    const query =
      '?project=%2Fp%2Fother&suite=viewed&schedule=llm-evals%2Fp-1%2Fnightly&state=completed&page=2';
    const html = await (await request(`/${query}`)).text();
    const filter = {
      project: '/p/other',
      suite: 'viewed',
      schedule: 'llm-evals/p-1/nightly',
      state: 'completed',
      page: 2,
    };
    expect(asked).toEqual([`${JSON.stringify(filter)} listed`]);
    // The line's counts wait for the script, which asks at once, for the same filter, and stops once nothing moves.
    expect(html).toContain('<tr data-run="r-1" data-state="running" data-counting>');
    expect(html).toMatch(/<td class="note counting">…<\/td>/);
    const src = `/fragment/runs${query.replaceAll('&', '&amp;')}`;
    expect(html).toContain(`<tbody data-live-src="${src}" data-now data-once>`);
    // Each filter a select, its value chosen; a schedule offered by name.
    for (const [name, value] of [
      ['project', '/p/other'],
      ['suite', 'viewed'],
      ['schedule', 'llm-evals/p-1/nightly'],
      ['state', 'completed'],
    ])
      expect(html).toMatch(new RegExp(`<select name="${name}">.*<option value="${value}" selected>`));
    expect(html).toContain('<option value="llm-evals/p-1/nightly" selected>nightly</option>');
    const rows = await (await request(`/fragment/runs${query}`)).text();
    expect(asked[1]).toBe(`${JSON.stringify(filter)} counted`);
    expect(rows).toContain('<progress value="3" max="12"></progress>');
    expect(rows).not.toContain('data-counting');
    // Or one line at a time, as the script fills the list in.
    const one = await (await request('/fragment/row/r-1')).text();
    expect(one).toMatch(/^<tr data-run="r-1" data-state="running">.*<progress value="3" max="12">/);
    // One that cannot be read leaves the list, as the counted list leaves it off; no error for the page's console.
    const gone = await request('/fragment/row/r-2');
    expect([gone.status, await gone.text()]).toEqual([200, '']);
  });

  it('serves its own script bundled by esbuild, with the CSP, and no script inline in any page', async () => {
    const response = await app()('/assets/view.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/javascript');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self';");
    const script = await response.text();
    // One self-contained function, minified: no module syntax the page's classic <script> could not run.
    expect(script).toMatch(/^("use strict";)?\(\(\)=>\{/);
    expect(script).not.toMatch(/\bimport\b|\bexport\b|\brequire\(/);
    expect(script).toContain('data-live-src');
    expect(script.split('\n').length).toBeLessThanOrEqual(2);
  });
});
