import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverReports, planDelivery, type Delivery, type DeliveryPlan } from '../../src/output/deliver.ts';
import { renderHtml } from '../../src/report/html.ts';
import { browserCommand, openInBrowser } from '../../src/output/open-browser.ts';
import { snapshotFixture } from './fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'llm-evals-deliver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base: Delivery = {
  display: 'both',
  open: true,
  snapshotFile: '/p/evals/results/r.json',
  baseDir: '/p',
};

describe('planDelivery', () => {
  it.each<[string, Partial<Delivery>, DeliveryPlan]>([
    [
      'both (the default): the TUI, and the HTML beside the snapshot, opened',
      {},
      { stdout: 'tui', html: { path: '/p/evals/results/r.html', open: true } },
    ],
    [
      '--no-open: written, not opened',
      { open: false },
      { stdout: 'tui', html: { path: '/p/evals/results/r.html', open: false } },
    ],
    ['--display tui', { display: 'tui' }, { stdout: 'tui' }],
    ['--display none', { display: 'none' }, {}],
    ['--display browser', { display: 'browser' }, { html: { path: '/p/evals/results/r.html', open: true } }],
    [
      '-o report.html: the browser opens that file',
      { output: 'out/report.html' },
      {
        file: { format: 'html', path: '/p/out/report.html' },
        stdout: 'tui',
        html: { path: '/p/out/report.html', open: true },
      },
    ],
    [
      '-o alone writes HTML beside the snapshot',
      { output: true, display: 'tui' },
      { file: { format: 'html', path: '/p/evals/results/r.html' }, stdout: 'tui' },
    ],
    [
      '-o run.json writes JSON',
      { output: 'run.json', display: 'none' },
      { file: { format: 'json', path: '/p/run.json' } },
    ],
    [
      '-o board.txt writes the TUI',
      { output: 'board.txt', display: 'none' },
      { file: { format: 'tui', path: '/p/board.txt' } },
    ],
    [
      '--format beats the extension',
      { output: 'x.out', format: 'json', display: 'none' },
      { file: { format: 'json', path: '/p/x.out' } },
    ],
    [
      '--format json without -o takes stdout from the TUI',
      { format: 'json' },
      { stdout: 'json', html: { path: '/p/evals/results/r.html', open: true } },
    ],
    [
      'an absolute -o stays put',
      { output: '/tmp/r.html', display: 'none' },
      { file: { format: 'html', path: '/tmp/r.html' } },
    ],
  ])('%s', (_, flags, plan) => {
    expect(planDelivery({ ...base, ...flags })).toEqual(plan);
  });
});

describe('deliverReports', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      io: {
        stdout: { write: (t: string) => out.push(t) },
        stderr: { write: (t: string) => err.push(t) },
        env: {},
        cwd: dir,
      },
      out: () => out.join(''),
      err: () => err.join(''),
    };
  };

  it('writes the HTML as renderHtml made it, prints the TUI, and says a headless machine opened nothing', async () => {
    const snapshot = snapshotFixture();
    const sink = io();
    const snapshotFile = join(dir, 'results', 'run.json');
    await deliverReports(snapshot, { ...base, snapshotFile, baseDir: dir }, { ...sink.io, env: {} });
    expect(readFileSync(join(dir, 'results', 'run.html'), 'utf8')).toBe(renderHtml(snapshot));
    expect(sink.out()).toContain('Standings by dataset');
    expect(sink.err()).toContain('report written: results/run.html');
    expect(sink.err()).toContain(
      'not opened (no display to open a browser on); the report is at results/run.html',
    );
  });

  it('writes -o FILE.txt without colour codes and prints nothing else', async () => {
    const sink = io();
    await deliverReports(
      snapshotFixture(),
      { ...base, display: 'none', output: 'board.txt', snapshotFile: join(dir, 'r.json'), baseDir: dir },
      sink.io,
    );
    expect(readFileSync(join(dir, 'board.txt'), 'utf8')).not.toContain('\u001b[');
    expect(sink.out()).toBe('');
  });
});

describe('openInBrowser', () => {
  it.each<[NodeJS.Platform, NodeJS.ProcessEnv, string]>([
    ['linux', {}, 'xdg-open'],
    ['darwin', {}, 'open'],
    ['win32', {}, 'explorer'],
    ['linux', { BROWSER: 'firefox' }, 'firefox'],
  ])('on %s with %j uses %s', (platform, env, command) => {
    expect(browserCommand(env, platform)).toBe(command);
  });

  it('runs the browser on the file and does not wait for it', async () => {
    const log = join(dir, 'opened.txt');
    const browser = join(dir, 'fake-browser.sh');
    // Written whole, then moved into place: the test never reads a file the shell has made and not yet written to.
    writeFileSync(browser, `#!/bin/sh\necho "$1" > ${log}.part && mv ${log}.part ${log}\n`);
    chmodSync(browser, 0o755);
    expect(await openInBrowser('/some/report.html', { BROWSER: browser })).toBeUndefined();
    for (let i = 0; i < 250 && !existsSync(log); i++) await sleep(20);
    expect(readFileSync(log, 'utf8')).toBe('/some/report.html\n');
  });

  it.each<[string, NodeJS.ProcessEnv, NodeJS.Platform, RegExp]>([
    [
      'no browser command',
      { BROWSER: '/nonexistent/browser' },
      'linux',
      /could not run \/nonexistent\/browser/,
    ],
    ['no display on Linux', {}, 'linux', /no display/],
  ])('never throws: %s', async (_, env, platform, problem) => {
    expect(await openInBrowser('/r.html', env, platform)).toMatch(problem);
  });
});
