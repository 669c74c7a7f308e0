import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from './cli-suite.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

/** How long the server takes over each reply. */
const REPLY_MS = 300;

/** A chat server that answers one reply per REPLY_MS, echoing the user text, and records how many it held at once. */
class OverlapServer {
  held = 0;
  mostAtOnce = 0;
  calls = 0;
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        if (!req.url?.endsWith('/chat/completions')) return void res.end('{"data":[]}');
        this.calls++;
        this.held++;
        this.mostAtOnce = Math.max(this.mostAtOnce, this.held);
        const body = JSON.parse(text) as { messages: { role: string; content: string }[] };
        const content = body.messages.find((m) => m.role === 'user')?.content ?? '';
        setTimeout(() => {
          this.held--;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 10, completion_tokens: 5 },
            }),
          );
        }, REPLY_MS);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Two models on one endpoint, three cases each with two in flight per experiment: two experiments at once. */
async function runWith(
  limit: string,
): Promise<{ server: OverlapServer; run: CliResult; snapshot: Snapshot; project: string }> {
  const server = new OverlapServer();
  const url = await server.start();
  const lineup = `solo:\n  base_url: ${url}\n${limit}  models: [first, second]\n`;
  const project = providerSuite(dirs, lineup, numberedCases(3));
  try {
    const run = await runCli(['compare', '-j', '0', '--display', 'tui', '--no-verify'], {
      cwd: project,
      env: cliEnv(dirs.os(), {}),
    });
    return { server, run, snapshot: savedSnapshot(project).snapshot, project };
  } finally {
    await server.stop();
  }
}

describe('max_concurrency on an endpoint section, through the real CLI', () => {
  let held: Awaited<ReturnType<typeof runWith>>;
  let free: Awaited<ReturnType<typeof runWith>>;

  beforeAll(async () => {
    held = await runWith('  max_concurrency: 1\n');
    free = await runWith('');
  }, 180_000);

  it('without it, the two experiments overlap at the server (the control)', () => {
    expect(free.run.code, free.run.stderr).toBe(0);
    expect(free.server.mostAtOnce).toBeGreaterThan(1);
  });

  it('max_concurrency: 1 holds the endpoint to one call at a time across both experiments', () => {
    expect(held.run.code, held.run.stderr).toBe(0);
    expect(held.server.calls).toBe(6);
    expect(held.server.mostAtOnce).toBe(1);
    expect(held.snapshot.results.every((r) => r.status === 'scored')).toBe(true);
  });

  it('records the time queued as waited, so latency is the model alone', () => {
    const results = held.snapshot.results;
    const waited = results.reduce((sum, r) => sum + (r.waited ?? 0), 0);
    // Six calls of 300 ms one at a time, four or more in line at first: seconds in the queue, all told.
    expect(waited).toBeGreaterThan(1);
    // The median, since a worker's first call also loads the HTTP client.
    const latencies = results.map((r) => r.latency!).sort((a, b) => a - b);
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(REPLY_MS / 1000 + 0.5);
  });

  it('status shows the time queued as waited on the endpoint, as it shows rate-limit waits', async () => {
    const status = (run: typeof held, json: boolean) =>
      runCli(['status', run.snapshot.runId, ...(json ? ['--json'] : [])], {
        cwd: run.project,
        env: cliEnv(dirs.os(), {}),
      });
    const queued = JSON.parse((await status(held, true)).stdout) as { waited: Record<string, number> };
    // The gate's own count: from a call's first ask to its place, as the snapshot's `waited` counts it per case.
    expect(queued.waited.solo).toBeGreaterThan(1);
    expect((await status(held, false)).stdout).toMatch(/^waited: solo \d+\.\d+s$/m);
    const unqueued = JSON.parse((await status(free, true)).stdout) as { waited: Record<string, number> };
    expect(unqueued.waited).toEqual({});
  });
});
