import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SCRIPT, STYLE } from '../../src/report/html-assets.ts';
import { esc, safeId } from '../../src/report/html-escape.ts';
import { renderHtml } from '../../src/report/html.ts';
import { SnapshotSchema } from '../../src/core/snapshot.ts';
import { HOSTILE_REPLY, snapshotFixture } from './fixture.ts';

const html = renderHtml(snapshotFixture({ score: 5, errors: -3, cost: -2 }));
const sha = (text: string) => createHash('sha256').update(text).digest('base64');

describe('renderHtml', () => {
  it('matches the saved report', async () => {
    await expect(html).toMatchFileSnapshot('__snapshots__/report.html.snap');
  });

  it('is a pure function of the snapshot: a JSON round trip renders the same bytes', () => {
    const again = SnapshotSchema.parse(
      JSON.parse(JSON.stringify(snapshotFixture({ score: 5, errors: -3, cost: -2 }))),
    );
    expect(renderHtml(again)).toBe(html);
  });

  it.each([
    ['a hostile reply', HOSTILE_REPLY],
    ['a diagnostic', '<b>red</b>'],
    ['an input', 'It might be <blue>, or "teal" & more.'],
    ['an error', 'beta: 503 Service Unavailable <after 5 attempts>'],
    ['the suite name', 'fixture <suite>'],
  ])('shows %s as text, never as markup', (_, text) => {
    expect(html).not.toContain(text);
    expect(html).toContain(esc(text));
  });

  it('runs only its own script, allowed by hash, and loads nothing from the network', () => {
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script>${SCRIPT}</script>`);
    expect(html).toContain(`script-src 'sha256-${sha(SCRIPT)}'`);
    expect(html).toContain(`style-src 'sha256-${sha(STYLE)}'`);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it.each([
    ['best value', 'id="best"'],
    ['global standings', 'id="overall"'],
    ['standings by dataset', 'id="datasets"'],
    ['leaderboards by variant', 'id="variants"'],
    ['weights', 'id="weights"'],
    ['cases', 'id="cases"'],
    ['glossary', 'id="glossary"'],
    ['the run', 'id="run"'],
    ["each experiment's row", `id="experiment-${safeId('001-north')}"`],
    ['each case', `id="case-${safeId('north/vague')}"`],
    ['sortable tables', '<table class="sortable">'],
    ['effort and temperature', '<th>effort</th><th>temp</th>'],
  ])('has %s', (_, fragment) => {
    expect(html).toContain(fragment);
  });

  it('has no weights section without weights', () => {
    expect(renderHtml(snapshotFixture())).not.toContain('id="weights"');
  });

  it('says when the run is not complete', () => {
    expect(renderHtml({ ...snapshotFixture(), status: 'aborted' })).toContain(
      'This run is aborted: 12 of 12 case results.',
    );
  });
});

describe('safeId', () => {
  it.each([
    ['north/vague', 'north_2f_vague'],
    ['a_b', 'a_5f_b'],
    ['001-x.y', '001-x.y'],
    ['"><x', '_22__3e__3c_x'],
  ])('%s → %s', (text, id) => expect(safeId(text)).toBe(id));
});
