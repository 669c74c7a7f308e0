import { describe, expect, it } from 'vitest';
import { createViewApp } from '../../src/view/app.ts';
import type { ViewLabels } from '../../src/view/labels.ts';
import type { RunView } from '../../src/view/model.ts';
import { countedProgress } from '../../src/view/progress.ts';
import { SavedSnapshots } from '../../src/view/saved.ts';
import { snapshotFixture } from '../report/fixture.ts';

// The case page's labels, through the view's own app: a labelled reply shows its label, and the page's small form
// POSTs one (behind the CSRF check) to the labels of the run's project, then shows the page again.

const ORIGIN = 'http://127.0.0.1:7357';
const snapshot = { ...snapshotFixture(), runId: 'r-1', status: 'completed' as const };
const RUN: RunView = {
  snapshot,
  state: 'completed',
  experiments: countedProgress(snapshot, 'completed', false),
  live: false,
  closed: true,
};

/** Labels kept in memory, per project, by case and reply text; what was added is recorded. */
function memoryLabels(added: string[]): ViewLabels {
  const kept = new Map<string, string>();
  return {
    of: (project) =>
      Promise.resolve(
        project === '/nowhere'
          ? {
              categories: ['fail', 'pass'],
              labelOf: (k: string, reply: string) => kept.get(`${k}\n${reply}`),
            }
          : undefined,
      ),
    add: (project, k, reply, value) => {
      added.push(`${project} ${k} ${value}`);
      kept.set(`${k}\n${reply}`, value);
      return Promise.resolve();
    },
  };
}

function app(labels?: ViewLabels) {
  const made = createViewApp({
    source: {
      run: (id: string) => Promise.resolve(id === 'r-1' ? RUN : undefined),
      reachable: () => Promise.resolve(true),
    } as never,
    saved: new SavedSnapshots(undefined),
    csrf: 'csrf-token-123',
    hosts: ['127.0.0.1:7357'],
    ...(labels ? { labels } : {}),
  });
  return (path: string, init: RequestInit = {}) =>
    made.request(ORIGIN + path, {
      ...init,
      headers: { host: '127.0.0.1:7357', ...(init.headers as Record<string, string> | undefined) },
    });
}

const post = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
  body,
});

const CASE = `/runs/r-1/case?key=${encodeURIComponent('north/clear')}`;
const experiment = snapshot.results.find(
  (r) => r.caseKey === 'north/clear' && r.reply !== undefined,
)!.experimentId;

describe('labels on the case page', () => {
  it('shows each reply unlabelled with a form, takes a POST, then shows the label', async () => {
    const added: string[] = [];
    const request = app(memoryLabels(added));
    const before = await (await request(CASE)).text();
    expect(before).toContain('data-label=""');
    expect(before).toContain('action="/runs/r-1/label"');
    expect(before).toContain('<option value="pass">pass</option>');

    const body = `csrf=csrf-token-123&key=${encodeURIComponent('north/clear')}&experiment=${experiment}&label=pass`;
    expect((await request('/runs/r-1/label', post(body.replace('csrf-token-123', 'wrong')))).status).toBe(
      403,
    );
    expect(added).toEqual([]);
    const made = await request('/runs/r-1/label', post(body));
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toBe(
      CASE.replace('?key=north%2Fclear', `?key=${encodeURIComponent('north/clear')}`),
    );
    expect(added).toEqual(['/nowhere north/clear pass']);
    const after = await (await request(CASE)).text();
    expect(after).toContain('data-label="pass"');
  });

  it('a reply the run does not hold is a 404, and a view without labels shows no form', async () => {
    const request = app(memoryLabels([]));
    const body = `csrf=csrf-token-123&key=north%2Fclear&experiment=nope&label=pass`;
    expect((await request('/runs/r-1/label', post(body))).status).toBe(404);
    expect(await (await app()(CASE)).text()).not.toContain('label-form');
  });
});
