import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

const dirs = new TempDirs();
const started: CliProcess[] = [];
afterAll(() => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  dirs.removeAll();
});

/** A chat server that never answers its first call (the call in flight when its worker dies) and echoes the rest. */
class HangFirstServer {
  /** When each call arrived (epoch ms). */
  readonly arrivals: number[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        if (!req.url?.endsWith('/chat/completions')) return void res.end('{"data":[]}');
        this.arrivals.push(Date.now());
        if (this.arrivals.length === 1) return;
        const body = JSON.parse(text) as { messages: { role: string; content: string }[] };
        const content = body.messages.find((m) => m.role === 'user')?.content ?? '';
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async until(calls: number, timeoutMs: number): Promise<number> {
    const end = Date.now() + timeoutMs;
    while (this.arrivals.length < calls) {
      if (Date.now() > end) throw new Error(`${this.arrivals.length} calls of ${calls} in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return this.arrivals[calls - 1]!;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('max_concurrency: a worker killed while its call holds the place', () => {
  it('frees the place within seconds: a call on another worker starts within 15 s of the kill', async () => {
    const server = new HangFirstServer();
    const url = await server.start();
    try {
      // Two models on one endpoint that takes one call at a time: two experiments, one case each.
      const lineup = `solo:\n  base_url: ${url}\n  max_concurrency: 1\n  models: [first, second]\n`;
      const dir = providerSuite(dirs, lineup, numberedCases(1));
      const env = cliEnv(dirs.os(), {});
      const start = await runCli(['start', '--no-worker', '-j', '0', '-p', '1', '--no-verify'], {
        cwd: dir,
        env,
      });
      expect(start.code, start.stderr).toBe(0);
      const runId = start.stdout.trim();
      const spawn = (args: string[]) => {
        const cli = startCli(args, { cwd: dir, env, timeoutMs: 180_000 });
        started.push(cli);
        return cli;
      };

      // The first worker takes one experiment's pool, and its call holds the place: the server never answers it.
      const doomed = spawn(['worker', '--max-activities', '1']);
      await server.until(1, 60_000);
      // The second worker takes the other experiment, whose call queues behind the held place.
      const survivor = spawn(['worker', '--until', runId]);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(server.arrivals).toHaveLength(1);

      doomed.child.kill('SIGKILL');
      const killedAt = Date.now();
      await doomed.done;
      const next = await server.until(2, 60_000);
      expect(next - killedAt, 'from the kill to the next call').toBeLessThan(15_000);

      // The survivor finishes the run: both cases scored, the killed call asked again.
      const done = await survivor.done;
      expect(done.code, done.stderr).toBe(0);
      const status = await runCli(['status', runId, '--json'], { cwd: dir, env });
      expect(JSON.parse(status.stdout)).toMatchObject({ state: 'completed', done: 2, total: 2 });
    } finally {
      await server.stop();
    }
  }, 240_000);
});
