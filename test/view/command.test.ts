import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli.ts';
import { killServer, ownServerEnv, startServer } from '../helpers/durable.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { writeViewSuite } from './view-suite.ts';
import { Client } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { runWorkflowId } from '../../src/core/run-input.ts';
import { LEAN_V8_FLAGS } from '../../src/cli/lean.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

describe('llm-evals view, the command', () => {
  let dir: string;
  beforeAll(() => {
    dir = dirs.inRepo('view-cmd-');
    writeViewSuite(dir, 2);
  });

  it.each([
    [['--token', 'short'], /--token: takes 16 or more letters, digits, - or _, got "short"/],
    [['--port', 'eighty'], /--port.*takes a whole number ≥ 0, got "eighty"/],
  ])('view %j: exit 2 and one message naming the flag', async (args, message) => {
    const done = await runCli(['view', '--no-open', ...args], { cwd: dir });
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(message);
    expect(done.stderr).not.toMatch(/\n\s+at /);
  });

  it('says a taken port plainly, exit 2', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const done = await runCli(['view', '--no-open', '--port', String(port)], {
        cwd: dir,
        env: { TEMPORAL_ADDRESS: '127.0.0.1:1' },
      });
      expect(done.code).toBe(2);
      expect(done.stderr).toContain(`--port: ${port} is taken; pass another (0: any free port)`);
    } finally {
      taken.close();
    }
  });

  it('view --help shows the default port', async () => {
    const done = await runCli(['view', '--help'], { cwd: dir });
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/--port <n>\s+the port \(default: 7357; 0: any free one\)/);
  });

  it('on every address (0.0.0.0), prints the addresses other machines open, each with the token', async () => {
    const view = startCli(['view', '--no-open', '--port', '0', '--host', '0.0.0.0'], {
      cwd: dir,
      env: { TEMPORAL_ADDRESS: '127.0.0.1:1' },
    });
    try {
      await view.waitFor(/\(Ctrl-C stops it\)/);
      const said = view.output().stdout;
      const urls = [...said.matchAll(/(http:\/\/\S+:\d+)\/\?token=[\w-]+/g)].map((m) => m[1]!);
      const outside = Object.values(networkInterfaces())
        .flatMap((list) => list ?? [])
        .filter((i) => i.family === 'IPv4' && !i.internal)
        .map((i) => i.address);
      expect(said).not.toContain('0.0.0.0');
      expect(urls.map((u) => new URL(u).hostname)).toEqual([...outside, '127.0.0.1']);
      // Each one printed answers (the token asked for, as anywhere off loopback).
      for (const url of urls) expect((await fetch(`${url}/`)).status).toBe(401);
    } finally {
      view.child.kill('SIGINT');
      await view.done;
    }
  }, 60_000);

  it('on a non-loopback host, makes a token, prints it in the URL and asks every request for it', async () => {
    const view = startCli(['view', '--no-open', '--port', '0', '--host', '0.0.0.0'], {
      cwd: dir,
      env: { TEMPORAL_ADDRESS: temporalAddress() },
    });
    try {
      const [, port, token] = await view.waitFor(/llm-evals view: http:\/\/\S+:(\d+)\/\?token=([\w-]+)/);
      const local = `http://127.0.0.1:${port}`;
      expect(token!.length).toBeGreaterThanOrEqual(24);
      expect((await fetch(`${local}/`)).status).toBe(401);
      const first = await fetch(`${local}/?token=${token}`, { redirect: 'manual' });
      expect(first.status).toBe(303);
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${local}/`, { headers: { cookie } })).status).toBe(200);
    } finally {
      view.child.kill('SIGINT');
      await view.done;
    }
  }, 60_000);

  it('lists the runs it can read when one on the server cannot be read', async () => {
    const env = { TEMPORAL_ADDRESS: temporalAddress() };
    // A run workflow that visibility lists as ours but that holds no header: its row cannot be made.
    const connection = await ClosableConnection.connect({ address: temporalAddress() });
    const client = new Client({ connection });
    const runId = `unreadable-${process.pid}`;
    const handle = await client.workflow.start('compareRun', {
      workflowId: runWorkflowId(runId),
      taskQueue: `view-unreadable-${process.pid}`,
      args: [{}],
      searchAttributes: { LlmEvalsRunId: [runId] },
    });
    const view = startCli(['view', '--no-open', '--port', '0'], { cwd: dir, env });
    try {
      const [, origin] = await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//);
      expect((await fetch(`${origin}/`)).status).toBe(200);
    } finally {
      view.child.kill('SIGINT');
      await view.done;
      await handle.terminate();
      await connection.close();
    }
  }, 60_000);

  // Linux's /proc shows what the process now runs as; elsewhere execve works the same, unseen.
  it.runIf(process.platform === 'linux')(
    'starts itself again, same pid, with the V8 flags that keep its heap small, and serves',
    async () => {
      const view = startCli(['view', '--no-open', '--port', '0'], {
        cwd: dir,
        env: { TEMPORAL_ADDRESS: '127.0.0.1:1' },
      });
      try {
        const [, origin] = await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//);
        const args = readFileSync(`/proc/${view.child.pid}/cmdline`, 'utf8').split('\0');
        expect(args.slice(1, 1 + LEAN_V8_FLAGS.length)).toEqual(LEAN_V8_FLAGS);
        expect(args).toContain('view');
        expect((await fetch(`${origin}/saved`)).status).toBe(200);
      } finally {
        view.child.kill('SIGINT');
        await view.done;
      }
      expect((await view.done).code).toBe(0);
    },
    60_000,
  );

  it("with Temporal down, shows the project's saved snapshots, read-only and labelled", async () => {
    const done = await runCli(['compare', '--no-open'], {
      cwd: dir,
      env: { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `view-cmd-${Date.now()}` },
    });
    expect(done.code, done.stderr).toBe(0);
    const results = join(dir, 'evals/results');
    const [file] = readdirSync(results).filter((f) => f.endsWith('.json'));
    mkdirSync(join(dir, 'evals/other'), { recursive: true });
    copyFileSync(join(results, file!), join(dir, 'evals/other/outside.json'));
    const view = startCli(['view', '--no-open', '--port', '0'], {
      cwd: dir,
      env: { TEMPORAL_ADDRESS: '127.0.0.1:1' },
    });
    try {
      const [, origin] = await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//);
      expect(view.output().stderr).toContain(
        'Temporal at 127.0.0.1:1 does not answer: only the saved snapshots of this project are shown, read-only.',
      );
      const home = await fetch(`${origin}/`, { redirect: 'manual' });
      expect(home.headers.get('location')).toBe('/saved');
      expect(await (await fetch(`${origin}/saved`)).text()).toContain(`href="/saved/${file}"`);
      const page = await (await fetch(`${origin}/saved/${file}`)).text();
      expect(page).toContain(`Saved snapshot ${file}, read-only`);
      expect(page).toContain('Global standings');
      expect((await fetch(`${origin}/saved/..%2fother%2foutside.json`)).status).toBe(404);
    } finally {
      view.child.kill('SIGINT');
      await view.done;
    }
  }, 90_000);

  it('with the embedded server not running, says how to start it, starts none itself, and links once it runs', async () => {
    const env = await ownServerEnv(dir);
    const view = startCli(['view', '--no-open', '--port', '0'], { cwd: dir, env });
    try {
      const [, origin] = await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//);
      const said =
        'Temporal is not running: only the saved snapshots of this project are shown, read-only. To see every run, ' +
        'start it with `llm-evals server start`, then reload the page.';
      expect(view.output().stderr).toContain(said);
      expect(await (await fetch(`${origin}/saved`)).text()).toContain(said);
      expect((await fetch(`${origin}/`, { redirect: 'manual' })).headers.get('location')).toBe('/saved');
      expect((await runCli(['server', 'status'], { cwd: dir, env })).stdout).toMatch(/not running/);
      // The user starts it as the page says, and reloads: the first page asked for links the view.
      await startServer(dir, env);
      const home = await fetch(`${origin}/`, { redirect: 'manual' });
      expect(home.status).toBe(200);
      const page = await home.text();
      expect(page).toContain('<h1>Runs');
      expect(page).not.toContain('Temporal is not running');
    } finally {
      view.child.kill('SIGINT');
      await view.done;
      await runCli(['server', 'stop', '--force'], { cwd: dir, env });
    }
  }, 90_000);

  it('falls back to the saved snapshots with the same banner when the server stops while it runs, and back when it returns', async () => {
    const env = await ownServerEnv(dir);
    await startServer(dir, env);
    const view = startCli(['view', '--no-open', '--port', '0'], { cwd: dir, env });
    const said =
      'Temporal is not running: only the saved snapshots of this project are shown, read-only. To see every run, ' +
      'start it with `llm-evals server start`, then reload the page.';
    try {
      const [, origin] = await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//);
      expect(await (await fetch(`${origin}/`)).text()).toContain('<h1>Runs');
      killServer(dir);
      // The runs list, a run's page and a live fragment: none a bare 500; the pages land on the saved snapshots.
      const asked = Date.now();
      const home = await fetch(`${origin}/`);
      // Not after the 20 s Temporal's client spends retrying a server that went away.
      expect(Date.now() - asked).toBeLessThan(10_000);
      expect(home.status).toBe(200);
      expect(home.url).toBe(`${origin}/saved`);
      expect(await home.text()).toContain(said);
      const run = await fetch(`${origin}/runs/some-run`);
      expect([run.status, run.url]).toEqual([200, `${origin}/saved`]);
      const live = await fetch(`${origin}/runs/some-run/live`);
      expect([live.status, live.headers.get('x-reload')]).toEqual([503, '1']);
      expect(view.output().stderr).toContain(said);
      expect(await (await fetch(`${origin}/fragment/linked`)).text()).toContain('not running');
      // Started again: the next page asked for is every run's list again, without the banner.
      await startServer(dir, env);
      // The banner of the page still open says so; the next page is every run's list again.
      const linked = await fetch(`${origin}/fragment/linked`);
      expect([linked.headers.get('x-live'), await linked.text()]).toEqual([
        '0',
        'Temporal answers again: <a href="/">see every run</a>.',
      ]);
      const back = await fetch(`${origin}/`, { redirect: 'manual' });
      expect(back.status).toBe(200);
      const page = await back.text();
      expect(page).toContain('<h1>Runs');
      expect(page).not.toContain('Temporal is not running');
    } finally {
      view.child.kill('SIGINT');
      await view.done;
      await runCli(['server', 'stop', '--force'], { cwd: dir, env });
    }
  }, 120_000);
});
