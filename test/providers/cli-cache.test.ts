import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { ReplyEntrySchema } from '../../src/cache/store.ts';
import { runCli, startCli, type CliResult } from '../helpers/cli.ts';
import { caseFiles, editFile, TempDirs, writeTree } from '../helpers/suite-dir.ts';
import { ChatServer, completion, failure, userText, type Received } from './chat-server.ts';
import { cliEnv, newestSnapshot as newestIn, numberedCases, providerSuite } from './cli-suite.ts';

const dirs = new TempDirs();
const SECRET = 'sk-cache-test-secret-4711';
let tokens = 0;

/** Echoes the user text (the toy adapter's right answer); each reply has its own token count, so samples differ. `picky` refuses the dog. */
function answer(request: Received) {
  const text = userText(request);
  if (request.body.model === 'picky' && text.includes('dog')) return failure(400, 'no dogs');
  return completion(text, { prompt_tokens: 20, completion_tokens: 10 + tokens++ });
}

/** `model case` of each completion the server received after the first `since`. */
function callsSince(server: ChatServer, since: number): string[] {
  return server
    .completions()
    .slice(since)
    .map((r) => `${String(r.body.model)} ${(JSON.parse(userText(r)) as { animal: string }).animal}`)
    .sort();
}

/** The snapshot the last run saved. */
function newestSnapshot(project: string): Snapshot {
  return newestIn(join(project, 'evals/results'));
}

/** Each result of a snapshot by `model case` (and `#repeat` with repeats). */
function resultsOf(snapshot: Snapshot) {
  const contenderOf = new Map(snapshot.experiments.map((e) => [e.id, e.contender]));
  const byKey = new Map(snapshot.contenders.map((c) => [c.key, c]));
  return Object.fromEntries(
    snapshot.results.map((r) => {
      const c = byKey.get(contenderOf.get(r.experimentId)!)!;
      return [`${c.id} ${r.caseKey}${c.repeat ? ` #${c.repeat}` : ''}`, r] as const;
    }),
  );
}

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('the reply cache through the real CLI', () => {
  const server = new ChatServer(answer);
  let project: string;
  let cache: string;
  let env: NodeJS.ProcessEnv;
  const compare = (...args: string[]) =>
    runCli(['compare', '-j', '0', '--display', 'tui', ...args], { cwd: project, env });
  let first: CliResult;

  beforeAll(async () => {
    const url = await server.start();
    const lineup = [
      'local-llm:',
      `  base_url: ${url}`,
      '  api_key_env: LOCAL_KEY',
      '  prices: { input: 1000, output: 2000 }',
      '  models: [echo, picky]',
    ].join('\n');
    project = providerSuite(dirs, lineup);
    cache = dirs.os('llm-evals-replies-');
    env = cliEnv(dirs.os(), { LOCAL_KEY: SECRET, LLM_EVALS_CACHE_DIR: cache });
    first = await compare();
  }, 90_000);

  afterAll(async () => {
    await server.stop();
    dirs.removeAll();
  });

  it('a first run calls every case and says nothing of the cache', () => {
    expect(first.code, first.stderr).toBe(0);
    expect(callsSince(server, 0)).toEqual(['echo cat', 'echo dog', 'picky cat', 'picky dog']);
    expect(first.stderr).not.toMatch(/from the cache/);
  });

  it('a second identical run makes no call but the failed one, and keeps the replies’ latency, tokens and cost', async () => {
    const before = newestSnapshot(project);
    const mark = server.completions().length;
    const second = await compare();
    expect(second.code, second.stderr).toBe(0);
    // The 400 was not kept: it is asked again; every reply that worked comes from the cache.
    expect(callsSince(server, mark)).toEqual(['picky dog']);
    expect(second.stderr).toMatch(
      /3 of 4 replies from the cache: this run paid \$\d+\.\d+, the replies cost \$\d+\.\d+ when they were called \(saved \$\d+\.\d+\); --no-cache calls them again/,
    );
    expect(second.stdout).toMatch(/from the cache: local-llm\/echo 2 of 2, local-llm\/picky 1 of 2/);
    const was = resultsOf(before);
    const now = resultsOf(newestSnapshot(project));
    for (const key of [
      'local-llm/echo pets/clear/001',
      'local-llm/echo pets/clear/002',
      'local-llm/picky pets/clear/001',
    ]) {
      // The run that paid for the reply is named, for the view's case page.
      expect(now[key]!.cached).toEqual({ replies: 1, calls: 0, paidUsd: 0, runs: [before.runId] });
      expect(now[key]!.usage).toEqual(was[key]!.usage);
      expect(now[key]!.usage.costUsd).toBeGreaterThan(0);
      expect(now[key]!.latency).toBe(was[key]!.latency);
      expect(now[key]!.score).toBe(1);
    }
    expect(now['local-llm/picky pets/clear/002']).toMatchObject({ status: 'error' });
    expect(now['local-llm/picky pets/clear/002']!.cached).toBeUndefined();
    const snapshot = newestSnapshot(project);
    expect(snapshot.settings.cache).toBe('read');
    const echo = snapshot.contenders.find((c) => c.id === 'local-llm/echo')!.key;
    expect(snapshot.cache?.[echo]).toMatchObject({ cached: 2, skipped: 0, results: 2, paidUsd: 0 });
  }, 60_000);

  it('an edited case is called again, and only it', async () => {
    editFile(join(project, 'evals/datasets/pets/cases/clear/001/expected.json'), (t) =>
      t.replace('"Tom"', '"Thomas"'),
    );
    const mark = server.completions().length;
    const run = await compare();
    expect(run.code, run.stderr).toBe(0);
    expect(callsSince(server, mark)).toEqual(['echo cat', 'picky cat', 'picky dog']);
    expect(run.stderr).toMatch(/1 of 4 replies from the cache/);
  }, 60_000);

  it('--no-cache calls everything again and refreshes the entries', async () => {
    const mark = server.completions().length;
    const run = await compare('--no-cache');
    expect(run.code, run.stderr).toBe(0);
    expect(callsSince(server, mark)).toEqual(['echo cat', 'echo dog', 'picky cat', 'picky dog']);
    expect(run.stderr).not.toMatch(/from the cache/);
    const refreshed = resultsOf(newestSnapshot(project));
    // Issue 44: `cache stats` left a --no-cache run out of the recent runs, though it filled the cache.
    const stats = await runCli(['cache', 'stats'], { cwd: project, env });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toContain(
      `  ${newestSnapshot(project).runId}: 4 replies called and kept (--no-cache)\n`,
    );
    // The next run finds the replies --no-cache got, not the older ones.
    const again = await compare();
    expect(again.code, again.stderr).toBe(0);
    const now = resultsOf(newestSnapshot(project));
    expect(now['local-llm/echo pets/clear/002']!.usage).toEqual(
      refreshed['local-llm/echo pets/clear/002']!.usage,
    );
  }, 90_000);

  it('--repeat 3 keeps three independent samples, and a second --repeat 3 finds the same three', async () => {
    const mark = server.completions().length;
    const run = await runCli(['run', '-m', 'local-llm/echo', '--repeat', '3', '--display', 'tui'], {
      cwd: project,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    // Each repeat is its own sample: called, not answered from the run without repeats nor from another repeat.
    expect(callsSince(server, mark)).toEqual([
      'echo cat',
      'echo cat',
      'echo cat',
      'echo dog',
      'echo dog',
      'echo dog',
    ]);
    const samples = resultsOf(newestSnapshot(project));
    const tokensOf = (results: typeof samples, c: string) =>
      [1, 2, 3].map((n) => results[`local-llm/echo pets/clear/${c} #${n}`]!.usage.outputTokens);
    expect(new Set(tokensOf(samples, '001')).size).toBe(3);
    const mark2 = server.completions().length;
    const again = await runCli(['run', '-m', 'local-llm/echo', '--repeat', '3', '--display', 'tui'], {
      cwd: project,
      env,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(callsSince(server, mark2)).toEqual([]);
    expect(again.stderr).toMatch(/6 of 6 replies from the cache/);
    const found = resultsOf(newestSnapshot(project));
    for (const c of ['001', '002']) expect(tokensOf(found, c)).toEqual(tokensOf(samples, c));
  }, 90_000);

  it('--cache-only calls nothing and reports the cases it has no reply for as skipped', async () => {
    writeTree(
      project,
      caseFiles('evals/datasets/pets/cases/clear/003', {
        input: 'A cow called Daisy.\n',
        expected: '{ "animal": "cow", "name": "Daisy" }\n',
      }),
    );
    const mark = server.completions().length;
    const run = await compare('--cache-only');
    expect(run.code, run.stderr).toBe(0);
    expect(callsSince(server, mark)).toEqual([]);
    // echo: the cow is new; picky: the cow, and the dog it never answered.
    expect(run.stderr).toMatch(
      // Answered from the cache alone, the run paid nothing now; the line says what the replies cost when called.
      /3 of 3 replies from the cache: this run paid \$0\.0000, the replies cost \$\d+\.\d+ when they were called .*; 3 cases skipped: no reply in the cache \(--cache-only\)/,
    );
    const snapshot = newestSnapshot(project);
    expect(Object.keys(resultsOf(snapshot)).sort()).toEqual([
      'local-llm/echo pets/clear/001',
      'local-llm/echo pets/clear/002',
      'local-llm/picky pets/clear/001',
    ]);
    const picky = snapshot.contenders.find((c) => c.id === 'local-llm/picky')!.key;
    expect(snapshot.cache?.[picky]).toMatchObject({ cached: 1, skipped: 2, results: 1 });
  }, 60_000);

  it('keeps no API key in any cache file', () => {
    const files = filesUnder(cache);
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('reads a corrupt entry as a miss: calls that case again, and cache stats counts it', async () => {
    // A cache of its own, so the one entry of the echoed dog is the one the next run reads.
    const own = { ...env, LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-corrupt-replies-') };
    const fill = await runCli(['compare', '-j', '0', '--display', 'tui'], { cwd: project, env: own });
    expect(fill.code, fill.stderr).toBe(0);
    const echoDog = filesUnder(own.LLM_EVALS_CACHE_DIR)
      .filter((f) => f.endsWith('.json'))
      .filter((f) => {
        const e = JSON.parse(readFileSync(f, 'utf8')) as { model: string; response: { text: string } };
        return e.model === 'local-llm/echo' && e.response.text.includes('dog');
      });
    expect(echoDog).toHaveLength(1);
    writeFileSync(echoDog[0]!, '{"version":1,"key":"');
    const mark = server.completions().length;
    const run = await runCli(['compare', '-j', '0', '--display', 'tui'], { cwd: project, env: own });
    expect(run.code, run.stderr).toBe(0);
    expect(callsSince(server, mark)).toEqual(['echo dog', 'picky dog']);
    const stats = await runCli(['cache', 'stats'], { cwd: project, env: own });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toContain('corrupt or unreadable entries read as misses: 1\n');
    // Called again, the entry is whole: a third run calls only the dog picky refuses.
    const mark2 = server.completions().length;
    const third = await runCli(['compare', '-j', '0', '--display', 'tui'], { cwd: project, env: own });
    expect(third.code, third.stderr).toBe(0);
    expect(callsSince(server, mark2)).toEqual(['picky dog']);
  }, 90_000);

  it('a cache that cannot be written leaves the run whole, and says so once', async () => {
    const blocked = join(dirs.os('llm-evals-blocked-'), 'a-file');
    writeFileSync(blocked, '');
    const mark = server.completions().length;
    const run = await runCli(['compare', '-j', '0', '--display', 'tui'], {
      cwd: project,
      env: { ...env, LLM_EVALS_CACHE_DIR: join(blocked, 'replies') },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(server.completions().length - mark).toBe(6);
    const said = run.stderr.match(
      /the reply cache could not be written \(.*a-file\/replies\): .*; results are kept/g,
    );
    expect(said).toHaveLength(1);
    expect(newestSnapshot(project).results).toHaveLength(6);
  }, 60_000);

  it.each(['compare', 'start'])(
    '%s --cache-only on an empty cache exits 2 with a clear message, calling and starting nothing',
    async (command) => {
      const mark = server.completions().length;
      const empty = dirs.os('llm-evals-empty-replies-');
      const run = await runCli([command, '--cache-only'], {
        cwd: project,
        env: { ...env, LLM_EVALS_CACHE_DIR: empty },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--cache-only: the reply cache (${empty}) holds no reply yet`);
      expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
      expect(run.stdout).toBe('');
      expect(server.completions().length).toBe(mark);
    },
    60_000,
  );

  it('cache prune refuses a bad age, naming the flag, and cache clear empties it', async () => {
    const bad = await runCli(['cache', 'prune', '--older-than', 'a month'], { cwd: project, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--older-than: takes an age such as 30d, 12h or 1w, got "a month"');
    const prune = await runCli(['cache', 'prune', '--older-than', '30d'], { cwd: project, env });
    expect(prune.stdout).toMatch(/^removed 0 replies kept before /);
    const clear = await runCli(['cache', 'clear'], { cwd: project, env });
    expect(clear.stdout).toMatch(/^removed \d+ replies from /);
    const stats = await runCli(['cache', 'stats'], { cwd: project, env });
    expect(stats.stdout).toMatch(/0 replies, 0 KB/);
  }, 60_000);
});

describe('two runs writing one reply cache at once, through the real CLI', () => {
  const server = new ChatServer((request) =>
    completion(userText(request), { prompt_tokens: 20, completion_tokens: 10 }),
  );

  afterAll(async () => {
    await server.stop();
  });

  it('leave every entry whole, read whole while they write, and a third run calls nothing', async () => {
    const url = await server.start();
    const lineup = `local-llm:\n  base_url: ${url}\n  models: [echo]\n`;
    const project = providerSuite(dirs, lineup, numberedCases(40));
    const cache = dirs.os('llm-evals-shared-replies-');
    const env = cliEnv(dirs.os(), { LLM_EVALS_CACHE_DIR: cache });
    // Both call every case and write every entry: each entry is written twice, by two processes, at about the same time.
    const runs = [1, 2].map(() =>
      startCli(['compare', '--no-cache', '-p', '8', '--display', 'none', '--no-autosave'], {
        cwd: project,
        env,
      }),
    );
    let reads = 0;
    let torn: string[] = [];
    let running = true;
    const done = Promise.all(runs.map((r) => r.done)).finally(() => (running = false));
    while (running) {
      for (const file of filesUnder(cache).filter((f) => f.endsWith('.json'))) {
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue;
        }
        reads++;
        if (!ReplyEntrySchema.safeParse(JSON.parse(text || 'null')).success) torn = [...torn, file];
      }
      await new Promise((tick) => setTimeout(tick, 20));
    }
    const ended = await done;
    for (const run of ended) expect(run.code, run.stderr).toBe(0);
    expect(server.completions()).toHaveLength(80);
    expect(reads).toBeGreaterThan(0);
    expect(torn).toEqual([]);
    const entries = filesUnder(cache).filter((f) => f.endsWith('.json'));
    expect(entries).toHaveLength(40);
    expect(filesUnder(cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const third = await runCli(['compare', '-p', '8', '--display', 'none', '--no-autosave'], {
      cwd: project,
      env,
    });
    expect(third.code, third.stderr).toBe(0);
    expect(server.completions()).toHaveLength(80);
    expect(third.stderr).toContain('40 of 40 replies from the cache');
  }, 120_000);
});
