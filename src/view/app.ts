import { timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono, type Context } from 'hono';
import { closedWords } from '../core/cancel-wait.ts';
import { RUN_STATES, type RunState } from '../core/run-state.ts';
import { esc } from '../report/html-escape.ts';
import { ASSETS, VIEW_CSP } from './assets.ts';
import { casePage } from './case-page.ts';
import type { ViewLabels } from './labels.ts';
import { viewScript } from './script.ts';
import type { CancelDone, RunView, RunsFilter, ViewSource } from './model.ts';
import {
  anyLive,
  caseHref,
  layout,
  rowHtml,
  runHref,
  runsPage,
  runsRowsHtml,
  savedPage,
  type PageContext,
} from './pages.ts';
import { diffPage, schedulePage } from './more-pages.ts';
import { liveHtml, runPage } from './run-page.ts';
import type { SavedSnapshots } from './saved.ts';

/** What the view's web app serves from, and how it checks who asks. */
export interface ViewOptions {
  /** Temporal's runs; absent when Temporal is down (only saved snapshots then). */
  source?: ViewSource;
  /**
   * Without a source: tries to link to Temporal again, for a request after it came up (`server start` once the view
   * runs, or the server back after it went away); undefined while it is still down. The notice goes once it links.
   */
  relink?: () => Promise<ViewSource | undefined>;
  /** Told that the source's Temporal stopped answering: the view shows the saved snapshots until `relink` links. */
  lost?: (source: ViewSource) => void;
  saved: SavedSnapshots;
  /** The token every request must carry (once in `?token=`, then as a cookie); for a non-loopback host. */
  token?: string;
  /** The token every change (a POST) must carry in its form. */
  csrf: string;
  /** The Host headers accepted (against DNS rebinding); any when absent. */
  hosts?: readonly string[];
  /** Said at the top of every page while no Temporal is linked (at start, or once it went away). */
  notice?: string;
  /** People's labels on replies, kept with each project's suite; none: case pages show no label. */
  labels?: ViewLabels;
}

/** A run id as the view accepts it in a URL: plain characters, no path part. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;
const COOKIE = 'llm-evals-view';

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The view's cookie in a Cookie header, if any. */
const cookieOf = (header: string | undefined) =>
  header
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);

const validRunId = (id: string) => RUN_ID.test(id) && !id.includes('..');

function notFound(c: Context, what: string, context: PageContext) {
  return c.html(layout('Not found', `<h1>Not found</h1><p>${esc(what)}</p>`, context), 404);
}

/** What a cancel from the view says on the run's page, as `llm-evals cancel` says it: the run, then each batch left. */
function cancelSaid(runId: string, done: CancelDone): NonNullable<PageContext['said']> {
  return [
    { text: [`cancelled run ${runId}: ${closedWords(done.how)}`, ...done.clauses].join('; ') },
    ...done.problems.map((text) => ({ text, problem: true })),
  ];
}

/** How often a request that waits on Temporal looks whether its server still answers. */
const LOOK_EVERY_MS = 2_000;

/**
 * Whether `source`'s server was found not answering while `request` went on (looked at every {@link LOOK_EVERY_MS});
 * false once the request is done first. A slow request on a server that answers goes on.
 */
async function goneWhile(source: ViewSource, request: Promise<void>): Promise<boolean> {
  let over = false;
  const done = request.then(() => {
    over = true;
    return false;
  });
  const look = async (): Promise<boolean> => {
    while (!over) {
      await sleep(LOOK_EVERY_MS);
      if (!over && !(await source.reachable())) return !over;
    }
    return false;
  };
  return Promise.race([done, look()]);
}

/**
 * A live part of a page asked for while Temporal is not linked: `x-reload` has the view's script reload the page,
 * which then shows the saved snapshots and says why.
 */
const unlinked = () =>
  new Response('Temporal is not linked', {
    status: 503,
    headers: { 'x-reload': '1', 'x-live': '0', 'cache-control': 'no-store' },
  });

function filterOf(c: Context): RunsFilter {
  const state = c.req.query('state');
  const page = Number(c.req.query('page') ?? 0);
  const text = (name: 'project' | 'suite' | 'schedule') => {
    const value = c.req.query(name);
    return value ? { [name]: value } : {};
  };
  return {
    ...text('project'),
    ...text('suite'),
    ...text('schedule'),
    ...(state && (RUN_STATES as readonly string[]).includes(state) ? { state: state as RunState } : {}),
    page: Number.isInteger(page) && page >= 0 ? page : 0,
  };
}

/** The view's web app: pages, live fragments and the POSTs that change a run, behind the token, CSRF and CSP checks. */
export function createViewApp(options: ViewOptions): Hono {
  const app = new Hono();
  let source = options.source;
  const context: PageContext = !source && options.notice ? { notice: options.notice } : {};
  // What a change just made said of a run, for its page to show once (the change answers with a redirect to it).
  const said = new Map<string, NonNullable<PageContext['said']>>();

  /**
   * Goes back to the saved snapshots, as when the view started without Temporal, once `was`'s server is found gone;
   * the request is answered as if asked again (the next ones link again once the server is back).
   */
  const fellBack = (request: { method: string; url: string }, was: ViewSource): Response => {
    if (source === was) {
      source = undefined;
      if (options.notice) context.notice = options.notice;
      options.lost?.(was);
    }
    const url = new URL(request.url);
    const to = (location: string) => new Response(null, { status: 303, headers: { location } });
    if (request.method !== 'GET') return to('/saved');
    if (url.pathname.startsWith('/fragment/') || url.pathname.endsWith('/live')) return unlinked();
    return to(url.pathname + url.search);
  };

  app.use('*', async (c, next) => {
    const host = c.req.header('host') ?? '';
    if (options.hosts && !options.hosts.includes(host)) return c.text('unknown host', 421);
    if (options.token) {
      const given = c.req.query('token');
      if (given !== undefined && same(given, options.token)) {
        c.header('Set-Cookie', `${COOKIE}=${options.token}; HttpOnly; SameSite=Strict; Path=/`);
        const url = new URL(c.req.url);
        url.searchParams.delete('token');
        return c.redirect(url.pathname + url.search, 303);
      }
      const cookie = cookieOf(c.req.header('cookie'));
      if (!cookie || !same(cookie, options.token))
        return c.text('a token is needed: open the URL the view printed', 401);
    }
    if (!source && options.relink) {
      source = await options.relink();
      if (source) delete context.notice;
    }
    // The pages that read Temporal, asked while it is not linked: the saved snapshots say what can be shown.
    if (!source && c.req.method === 'GET' && /^\/(runs|diff|schedule)(\/|$)/.test(c.req.path)) {
      // The script's live parts reload their page, which lands there with the banner.
      if (c.req.path.endsWith('/live')) return unlinked();
      return c.redirect('/saved', 303);
    }
    const was = source;
    if (!was) await next();
    // Temporal's client retries a server that went away for some 20 s before it fails: the view looks for itself.
    else if (await goneWhile(was, next())) return fellBack(c.req.raw, was);
    c.header('Content-Security-Policy', VIEW_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    // Not no-referrer: Chromium then sends `Origin: null` with a form's POST, and the origin check refuses it.
    c.header('Referrer-Policy', 'same-origin');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-store');
  });

  app.post('*', async (c, next) => {
    const origin = c.req.header('origin');
    if (origin && origin !== new URL(c.req.url).origin) return c.text('cross-origin change refused', 403);
    const body = await c.req.parseBody();
    const csrf = typeof body.csrf === 'string' ? body.csrf : '';
    if (!same(csrf, options.csrf)) return c.text('missing or wrong CSRF token: reload the page', 403);
    await next();
  });

  // The view's own script, bundled by esbuild from src/view/browser/ (see script.ts).
  app.get('/assets/view.js', async (c) =>
    c.body(await viewScript(), 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );

  app.get('/assets/:name', (c) => {
    const asset = Object.hasOwn(ASSETS, c.req.param('name')) ? ASSETS[c.req.param('name')] : undefined;
    if (!asset) return notFound(c, 'no such asset', context);
    return c.body(asset.body, 200, { 'content-type': asset.type });
  });

  app.get('/favicon.ico', (c) => c.body(null, 204));

  app.get('/', async (c) => {
    if (!source) return c.redirect('/saved', 303);
    const filter = filterOf(c);
    // From visibility alone, at once: the page's script fetches the counted rows (each reads its run's histories).
    return c.html(runsPage(await source.runs(filter, false), filter, context));
  });

  // The banner of a page shown while Temporal was not linked: still its words, or that it answers again.
  app.get('/fragment/linked', (c) =>
    source
      ? c.html('Temporal answers again: <a href="/">see every run</a>.', 200, { 'x-live': '0' })
      : c.html(esc(options.notice ?? 'Temporal is not linked'), 200, { 'x-live': '1' }),
  );

  app.get('/fragment/runs', async (c) => {
    if (!source) return unlinked();
    const page = await source.runs(filterOf(c));
    return c.html(runsRowsHtml(page), 200, { 'x-live': anyLive(page.rows) ? '1' : '0' });
  });

  app.get('/fragment/row/:runId', async (c) => {
    const id = c.req.param('runId');
    if (!source) return unlinked();
    if (!validRunId(id)) return notFound(c, 'no such run on this Temporal', context);
    // A run that cannot be read leaves the list, as the counted list leaves it off: its line becomes nothing.
    const row = await source.row(id);
    return c.html(row ? rowHtml(row) : '');
  });

  const run = async (c: Context): Promise<RunView | undefined> => {
    const id = c.req.param('runId') ?? '';
    if (!source || !validRunId(id)) return undefined;
    return source.run(id);
  };

  app.get('/runs/:runId', async (c) => {
    const view = await run(c);
    if (!view) return notFound(c, 'no such run on this Temporal', context);
    const page = Number(c.req.query('page') ?? 0);
    const base = runHref(view.snapshot.runId);
    const lines = said.get(view.snapshot.runId);
    said.delete(view.snapshot.runId);
    return c.html(
      runPage(view, base, {
        csrf: options.csrf,
        page: Number.isInteger(page) && page > 0 ? page : 0,
        context: lines ? { ...context, said: lines } : context,
      }),
    );
  });

  app.get('/runs/:runId/live', async (c) => {
    const id = c.req.param('runId');
    const view = source && validRunId(id) ? await source.live(id) : undefined;
    if (!view) return notFound(c, 'no such run on this Temporal', context);
    const at = c.req.query('at') ?? '';
    const done = Number(c.req.query('done'));
    const asOf =
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(at) && Number.isInteger(done) ? { at, done } : undefined;
    return c.html(liveHtml(view, asOf, runHref(id)), 200, { 'x-live': view.closed ? '0' : '1' });
  });

  /** A case page, with each reply's label and its form where the run's project has a judge. */
  const caseHtml = async (view: RunView, base: string, key: string) => {
    const labels = await options.labels?.of(view.snapshot.suite.project);
    return casePage(view, base, key, context, labels ? { labels, csrf: options.csrf } : undefined);
  };

  /** `POST …/label`: a person's label on one reply of the case page, then the page again. */
  const label = async (c: Context, view: RunView | undefined, base: string) => {
    const body = await c.req.parseBody();
    const text = (name: string) => (typeof body[name] === 'string' ? body[name] : '');
    const r = view?.snapshot.results.find(
      (x) => x.caseKey === text('key') && x.experimentId === text('experiment'),
    );
    if (!view || !options.labels || r?.reply === undefined)
      return notFound(c, 'no such reply to label', context);
    await options.labels.add(view.snapshot.suite.project, r.caseKey, r.reply, text('label'));
    return c.redirect(caseHref(base, r.caseKey), 303);
  };

  app.get('/runs/:runId/case', async (c) => {
    const view = await run(c);
    const html = view && (await caseHtml(view, runHref(view.snapshot.runId), c.req.query('key') ?? ''));
    return html ? c.html(html) : notFound(c, 'no such case in this run', context);
  });

  app.post('/runs/:runId/label', async (c) => {
    const view = await run(c);
    return label(c, view, view ? runHref(view.snapshot.runId) : '');
  });

  const change = (action: 'cancel' | 'continue' | 'stop') =>
    app.post(`/runs/:runId/${action}`, async (c) => {
      const id = c.req.param('runId');
      if (!source || !validRunId(id)) return notFound(c, 'no such run on this Temporal', context);
      if (action === 'cancel') said.set(id, cancelSaid(id, await source.cancel(id)));
      else await source.answer(id, action === 'continue');
      return c.redirect(runHref(id), 303);
    });
  change('cancel');
  change('continue');
  change('stop');

  app.get('/diff', async (c) => {
    const a = c.req.query('a') ?? '';
    const b = c.req.query('b') ?? '';
    if (!source) return c.redirect('/saved', 303);
    if (!a || !b) return c.html(diffPage(a, b, undefined, undefined, context));
    if (!validRunId(a) || !validRunId(b))
      return c.html(diffPage(a, b, undefined, 'not run ids', context), 404);
    try {
      return c.html(diffPage(a, b, await source.diff(a, b), undefined, context));
    } catch (error) {
      if ((error as { exitCode?: number }).exitCode !== 2) throw error;
      return c.html(diffPage(a, b, undefined, (error as Error).message, context), 404);
    }
  });

  app.get('/schedule', async (c) => {
    const show = source && (await source.schedule(c.req.query('project') ?? '', c.req.query('name') ?? ''));
    return show ? c.html(schedulePage(show, context)) : notFound(c, 'no such schedule', context);
  });

  app.get('/saved', (c) => c.html(savedPage(options.saved.dir, options.saved.list(), context)));

  app.get('/saved/:file', (c) => {
    const view = options.saved.read(c.req.param('file'));
    if (!view) return notFound(c, 'no such saved snapshot', context);
    const page = Number(c.req.query('page') ?? 0);
    const base = `/saved/${encodeURIComponent(view.saved!)}`;
    return c.html(
      runPage(view, base, {
        csrf: options.csrf,
        page: Number.isInteger(page) && page > 0 ? page : 0,
        context,
      }),
    );
  });

  app.get('/saved/:file/case', async (c) => {
    const view = options.saved.read(c.req.param('file'));
    const base = view ? `/saved/${encodeURIComponent(view.saved!)}` : '';
    const html = view && (await caseHtml(view, base, c.req.query('key') ?? ''));
    return html ? c.html(html) : notFound(c, 'no such case in this snapshot', context);
  });

  app.post('/saved/:file/label', async (c) => {
    const view = options.saved.read(c.req.param('file'));
    return label(c, view, view ? `/saved/${encodeURIComponent(view.saved!)}` : '');
  });

  app.notFound((c) => notFound(c, 'no such page', context));
  app.onError(async (error, c) => {
    // Temporal went away under a request: the view goes back to the saved snapshots, as when it started without it,
    // and the same request, asked again, is answered so (the next ones link again once it is back).
    const was = source;
    if (was && (error as { exitCode?: number }).exitCode !== 2 && !(await was.reachable()))
      return fellBack(c.req.raw, was);
    const status = (error as { exitCode?: number }).exitCode === 2 ? 404 : 500;
    return c.html(layout('Error', `<h1>Error</h1><pre>${esc(error.message)}</pre>`, context), status);
  });
  return app;
}
