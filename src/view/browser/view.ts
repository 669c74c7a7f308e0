// The view's script in the browser, bundled by esbuild (src/view/script.ts) and served as /assets/view.js: the CSP
// allows no inline script. It runs with the DOM's globals, which the project's TypeScript (Node's lib) does not
// declare: the few it uses are typed below.

/** An element as this script uses it. */
interface Element {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  innerHTML: string;
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

/**
 * Keeps `el` filled with the server's fragment at `data-live-src` (our own escaped HTML): at once when it says
 * `data-now` (a list whose lines are not counted yet), else after a second, then every second. The server's
 * `x-live: 0` says nothing there moves any more: `data-reload` then reloads the page once, for the final figures;
 * `data-once` stops.
 */
function follow(el: Element): void {
  const src = el.getAttribute('data-live-src');
  if (!src) return;
  const tick = async (): Promise<void> => {
    let wait = EVERY_MS;
    try {
      const response = await browser.fetch(src, { headers: { accept: 'text/html' }, cache: 'no-store' });
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
  setTimeout(() => void tick(), el.hasAttribute('data-now') ? 0 : EVERY_MS);
}

for (const el of browser.document.querySelectorAll('[data-live-src]')) follow(el);

// A form that changes a run (cancel, continue, stop) asks first, as the CLI does.
for (const form of browser.document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!browser.confirm(form.getAttribute('data-confirm') ?? 'Sure?')) event.preventDefault();
  });
}
