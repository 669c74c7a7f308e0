import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.ts';
import { createProgram, type Commands } from '../../src/cli/program.ts';
import { REPO } from '../helpers/suite-dir.ts';

// The systemd user units in examples/systemd, read back (no systemd here): each section and key a unit needs, and
// each command line one our own parser accepts, so the example cannot drift from the CLI.

const DIR = join(REPO, 'examples/systemd');

/** A unit file as sections of key → values (a key may repeat), comments and blank lines dropped. */
function readUnit(name: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of readFileSync(join(DIR, name), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1]!, current);
      continue;
    }
    const eq = line.indexOf('=');
    expect(eq, `${name}: ${line}`).toBeGreaterThan(0);
    expect(current, `${name}: ${line} outside a section`).toBeDefined();
    const key = line.slice(0, eq);
    current!.set(key, [...(current!.get(key) ?? []), line.slice(eq + 1)]);
  }
  return sections;
}

const one = (unit: Map<string, Map<string, string[]>>, section: string, key: string) => {
  const values = unit.get(section)?.get(key);
  expect(values, `[${section}] ${key}`).toHaveLength(1);
  return values![0]!;
};

/** The llm-evals command an ExecStart runs, parsed by our own program: which handler, with which arguments. */
async function parsed(execLine: string): Promise<{ command: string; args: unknown[] }> {
  const words = execLine.split(/\s+/);
  const at = words.indexOf('llm-evals');
  expect(at, execLine).toBeGreaterThan(0);
  const seen: { command: string; args: unknown[] }[] = [];
  const commands = new Proxy({} as Commands, {
    get:
      (_target, command: string) =>
      (...args: unknown[]) => {
        seen.push({ command, args: args.slice(0, -1) });
        return Promise.resolve(0);
      },
  });
  const io: Io = {
    stdout: { write: () => true },
    stderr: { write: () => true },
    cwd: '/',
    env: {},
    interactive: false,
  };
  const { program } = createProgram(commands, io, { version: '0', requestTypes: [] });
  await program.parseAsync(words.slice(at + 1), { from: 'user' });
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('the systemd user units in examples/systemd', () => {
  it('the worker unit keeps `llm-evals worker` up in the project, after the server, stopping gently', async () => {
    const unit = readUnit('llm-evals-worker.service');
    expect(one(unit, 'Unit', 'After')).toContain('llm-evals-server.service');
    expect(one(unit, 'Unit', 'Wants')).toBe('llm-evals-server.service');
    expect(one(unit, 'Service', 'WorkingDirectory')).toMatch(/^%h\//);
    expect(one(unit, 'Service', 'Restart')).toBe('always');
    expect(Number(one(unit, 'Service', 'RestartSec'))).toBeGreaterThan(0);
    expect(one(unit, 'Service', 'KillSignal')).toBe('SIGTERM');
    expect(Number(one(unit, 'Service', 'TimeoutStopSec'))).toBeGreaterThanOrEqual(60);
    expect(one(unit, 'Install', 'WantedBy')).toBe('default.target');
    const exec = await parsed(one(unit, 'Service', 'ExecStart'));
    expect(exec.command).toBe('worker');
    expect(exec.args[0]).not.toHaveProperty('until');
  });

  it('the server unit starts and stops the embedded server, and stays active after `server start` returns', async () => {
    const unit = readUnit('llm-evals-server.service');
    expect(one(unit, 'Service', 'Type')).toBe('oneshot');
    expect(one(unit, 'Service', 'RemainAfterExit')).toBe('yes');
    expect(await parsed(one(unit, 'Service', 'ExecStart'))).toMatchObject({
      command: 'server',
      args: ['start', expect.anything()],
    });
    expect(await parsed(one(unit, 'Service', 'ExecStop'))).toMatchObject({
      command: 'server',
      args: ['stop', expect.anything()],
    });
    expect(one(unit, 'Install', 'WantedBy')).toBe('default.target');
  });

  it('the README installs both units, keeps them up logged out, and says what show prints without a worker', () => {
    const readme = readFileSync(join(DIR, 'README.md'), 'utf8');
    for (const file of ['llm-evals-server.service', 'llm-evals-worker.service'])
      expect(readme).toContain(file);
    expect(readme).toContain('systemctl --user enable --now');
    expect(readme).toContain('loginctl enable-linger');
    expect(readme).toContain('workers: none has polled');
  });
});
