// The chaos bench's processes and its faults: every child is tracked, and killed (the server stopped) when the bench
// exits, however it exits; workers are started and SIGKILLed, the server SIGKILLed and started again on the same db.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bin, logDir, note, stateDir, suiteDir } from './options.ts';

/** A `worker --until RUN` the bench started, and how it ended. */
export interface Worker {
  index: number;
  child: ChildProcess;
  pid: number;
  spawnedAt: number;
  log: string;
  killedAt?: number;
  exited?: { at: number; code: number | null; signal: NodeJS.Signals | null };
}

/** Stops the bench: says why on stderr and where to look, and exits (the exit handler kills what we started). */
export function fail(message: string, code = 2): never {
  process.stderr.write(
    `\nchaos bench: ${message}\n  logs: ${logDir} (workers), ${join(stateDir, 'server.log')}, ${join(suiteDir, 'log')}\n`,
  );
  process.exit(code);
}

/** The pid server.json gives for the bench's Temporal server, if any. */
export function serverPid(): number | undefined {
  const file = join(stateDir, 'server.json');
  if (!existsSync(file)) return undefined;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live Temporal server on our db (never signal a reused pid, nor the user's own server). */
export function isOurServer(pid: number | undefined): pid is number {
  if (!pid) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(join(stateDir, 'temporal.db'));
  } catch {
    return false;
  }
}

/** The last lines of a log, for a worker that left by itself. */
export function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** A free port P on 127.0.0.1 with P + 1000 (the UI) free too. */
export async function freePort(): Promise<number> {
  const listen = (port: number) =>
    new Promise<number | undefined>((done) => {
      const probe = createServer();
      probe.once('error', () => done(undefined));
      probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
        const address = probe.address();
        probe.close(() => done(typeof address === 'object' && address ? address.port : undefined));
      });
    });
  for (let i = 0; i < 50; i++) {
    const port = await listen(0);
    if (port && port + 1000 <= 65535 && (await listen(port + 1000))) return port;
  }
  throw new Error('no free port P with P + 1000 free on 127.0.0.1');
}

/** The processes the bench started in the suite, under `env`, and the workers in the order they started. */
export class ChaosProcesses {
  readonly workers: Worker[] = [];
  /** Whether the bench may have a server running, to be stopped on the way out. */
  serverMayRun = false;
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** Kills every child still running and stops the server the bench started. */
  cleanup(): void {
    for (const child of this.children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (!this.serverMayRun) return;
    this.serverMayRun = false;
    spawnSync(process.execPath, [bin, 'server', 'stop'], {
      cwd: suiteDir,
      env: this.env,
      stdio: 'ignore',
      timeout: 30_000,
    });
    const pid = serverPid();
    if (isOurServer(pid)) process.kill(pid, 'SIGKILL');
  }

  /** Runs `llm-evals ...args` in the suite to its end (SIGKILLed after `timeoutMs`). */
  cli(args: string[], timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((done, reject) => {
      const child = spawn(process.execPath, [bin, ...args], {
        cwd: suiteDir,
        env: this.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.children.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const timer = setTimeout(() => {
        stderr += `\n(killed after ${timeoutMs / 1000} s)`;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        this.children.delete(child);
        done({ code, stdout, stderr });
      });
    });
  }

  /** Starts a `worker --until RUN`, its output in a log of its own. */
  spawnWorker(runId: string): Worker {
    const index = this.workers.length + 1;
    const log = join(logDir, `worker-${index}.log`);
    const out = openSync(log, 'a');
    const child = spawn(process.execPath, [bin, 'worker', '--until', runId], {
      cwd: suiteDir,
      env: this.env,
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    this.children.add(child);
    const worker: Worker = { index, child, pid: child.pid ?? 0, spawnedAt: Date.now(), log };
    child.on('exit', (code, signal) => {
      worker.exited = { at: Date.now(), code, signal };
      this.children.delete(child);
    });
    this.workers.push(worker);
    note(`worker #${index} started (pid ${worker.pid}, log ${log})`);
    return worker;
  }

  /**
   * SIGKILLs the bench's server (`killed` is told at once), waits for it to be gone and `downMs` more, and starts it
   * again on the same db: when it was killed, when it answered again, and what `server start` said.
   */
  async killServer(
    downMs: number,
    killed: (pid: number) => void,
  ): Promise<{ at: number; backAt: number; said: string }> {
    const pid = serverPid();
    if (!isOurServer(pid)) fail(`no server of ours to kill (server.json says pid ${pid})`);
    const at = Date.now();
    process.kill(pid, 'SIGKILL');
    killed(pid);
    while (isOurServer(pid)) await sleep(10);
    if (downMs) await sleep(downMs);
    const again = await this.cli(['server', 'start']);
    if (again.code !== 0) fail(`server start after the kill exited ${again.code}:\n${again.stderr}`);
    return { at, backAt: Date.now(), said: again.stdout.trim() };
  }

  /** SIGKILLs a worker and waits for it to be gone. */
  async killWorker(worker: Worker): Promise<void> {
    worker.killedAt = Date.now();
    worker.child.kill('SIGKILL');
    while (!worker.exited) await sleep(10);
  }
}
