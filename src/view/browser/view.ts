// The view's script in the browser, bundled by esbuild (src/view/script.ts) and served as /assets/view.js: the CSP
// allows no inline script. It runs with the DOM's globals, which the project's TypeScript (Node's lib) does not
// declare: the few it uses are typed below.

/** An element as this script uses it. */
interface Element {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelectorAll(selector: string): Iterable<Element>;
  innerHTML: string;
  outerHTML: string;
  addEventListener(type: 'submit', listener: (event: { preventDefault(): void }) => void): void;
}

/** The DOM's globals this script uses. */
interface Browser {
  document: { querySelectorAll(selector: string): Iterable<Element> };
  location: { reload(): void };
  confirm(message: string): boolean;
  fetch(url: string, init: { headers: Record<string, string>; cache: 'no-store' }): Promise<Response>;
}

const browser = globalThis as unknown as Browser;

/** How often a live part of a page is fetched again, and after a failed fetch. */
const EVERY_MS = 1000;
const AFTER_FAILURE_MS = 2000;

/** Lines of the runs list counted at once: each reads its run's histories on the server. */
const LINES_AT_ONCE = 4;

const get = (url: string) => browser.fetch(url, { headers: { accept: 'text/html' }, cache: 'no-store' });

/**
 * Puts each line of `el` not counted yet (`tr[data-counting]`) in its counted form, fetched line by line, so the list
 * fills in as runs are read rather than all at once after the slowest.
 */
async function fill(el: Element): Promise<void> {
  const lines = [...el.querySelectorAll('tr[data-counting]')];
  const lane = async () => {
    for (let line = lines.shift(); line; line = lines.shift()) {
      try {
        const response = await get(
          `/fragment/row/${encodeURIComponent(line.getAttribute('data-run') ?? '')}`,
        );
        if (response.ok) line.outerHTML = await response.text();
      } catch {
        // The list's next refresh counts it.
      }
    }
  };
  await Promise.all(Array.from({ length: LINES_AT_ONCE }, lane));
}

/**
 * Keeps `el` filled with the server's fragment at `data-live-src` (our own escaped HTML), every second; a list whose
 * lines are not counted yet (`data-now`) has them filled in first, line by line. The server's
 * `x-live: 0` says nothing there moves any more: `data-reload` then reloads the page once, for the final figures;
 * `data-once` stops.
 */
function follow(el: Element): void {
  const src = el.getAttribute('data-live-src');
  if (!src) return;
  const tick = async (): Promise<void> => {
    let wait = EVERY_MS;
    try {
      const response = await get(src);
      // Temporal went away: the page, loaded again, shows the saved snapshots and says so.
      if (response.headers.get('x-reload') === '1') return browser.location.reload();
      if (!response.ok) wait = AFTER_FAILURE_MS;
      else {
        el.innerHTML = await response.text();
        if (response.headers.get('x-live') === '0') {
          if (el.hasAttribute('data-reload')) return browser.location.reload();
          if (el.hasAttribute('data-once')) return;
        }
      }
    } catch {
      // The server went away for a moment: try again.
      wait = AFTER_FAILURE_MS;
    }
    setTimeout(() => void tick(), wait);
  };
  if (el.hasAttribute('data-now')) void fill(el).then(() => setTimeout(() => void tick(), EVERY_MS));
  else setTimeout(() => void tick(), EVERY_MS);
}

for (const el of browser.document.querySelectorAll('[data-live-src]')) follow(el);

// A form that changes a run (cancel, continue, stop) asks first, as the CLI does.
for (const form of browser.document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!browser.confirm(form.getAttribute('data-confirm') ?? 'Sure?')) event.preventDefault();
  });
}
