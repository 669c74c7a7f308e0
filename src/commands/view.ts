import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { VIEW_PORT, type SuiteFlags } from '../cli/options.ts';
import { ConfigError } from '../errors.ts';
import { openInBrowser } from '../output/open-browser.ts';
import { linkIfRunning, type TemporalLink } from '../client/connect.ts';
import { viewAddresses } from '../view/addresses.ts';
import { casesByProject, savedDirOf, suiteOf } from '../view/projects.ts';
import { SavedSnapshots } from '../view/saved.ts';
import { suiteLabels } from '../view/labels.ts';
import { LOOPBACK, serveView } from '../view/serve.ts';
import type { ViewSource } from '../view/model.ts';
import { TemporalSource } from '../view/temporal-source.ts';

/** The flags of `view`. */
export interface ViewFlags extends SuiteFlags {
  port?: number;
  host?: string;
  token?: string;
  /** `--no-open`: print the address, open no browser. */
  open?: boolean;
}

/**
 * What the view says when it has no Temporal to read: the server `TEMPORAL_ADDRESS` names does not answer, or the
 * embedded one is not running, which `server start` starts (a page asked for after that links the view to it).
 */
function downNotice(env: NodeJS.ProcessEnv): string {
  const only = 'only the saved snapshots of this project are shown, read-only';
  return env.TEMPORAL_ADDRESS
    ? `Temporal at ${env.TEMPORAL_ADDRESS} does not answer: ${only}.`
    : `Temporal is not running: ${only}. To see every run, start it with \`llm-evals server start\`, then ` +
        'reload the page.';
}

/**
 * How often at most a view started without the Temporal `TEMPORAL_ADDRESS` names tries again to link to it, as
 * requests come: a try at an address that does not answer waits up to 2 s. The embedded server is looked for at each
 * request (its record and a local port that refuses at once), so the reload after `server start` shows every run.
 */
const RELINK_EVERY_MS = 5_000;

/** How long a link whose server went away stays open: Temporal's client retries a call on it for some 20 s. */
const CLOSE_LOST_AFTER_MS = 60_000;

/**
 * The view's link to Temporal, made again for the first request after it came up (at start, or after it went away):
 * tried by requests (a remote address at most every {@link RELINK_EVERY_MS}); requests that come while a try goes on
 * wait for it. A link whose server went away is closed, so its connection stops trying.
 */
class Relinker {
  private next = 0;
  private trying: Promise<ViewSource | undefined> | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: (line: string) => void,
    private readonly sourceOf: (link: TemporalLink) => ViewSource,
    public link: TemporalLink | undefined,
  ) {}

  readonly relink = (): Promise<ViewSource | undefined> => {
    if (this.trying) return this.trying;
    if (Date.now() < this.next) return Promise.resolve(undefined);
    this.next = this.env.TEMPORAL_ADDRESS ? Date.now() + RELINK_EVERY_MS : 0;
    this.trying = linkIfRunning({ env: this.env, log: this.log })
      .then((link) => {
        this.link = link;
        return link ? this.sourceOf(link) : undefined;
      })
      .catch(() => undefined)
      .finally(() => (this.trying = undefined));
    return this.trying;
  };

  readonly lost = (): void => {
    const gone = this.link;
    this.link = undefined;
    this.next = this.env.TEMPORAL_ADDRESS ? Date.now() + RELINK_EVERY_MS : 0;
    // Once the requests still on it have given up: the client's retry of a call on a closed channel throws from a
    // timer, which would end the view.
    setTimeout(() => void gone?.close().catch(() => undefined), CLOSE_LOST_AFTER_MS).unref();
  };
}

const DEFAULT_PORT = VIEW_PORT;

/**
 * `view`: every run of this Temporal in the browser, live, with the current project's saved snapshots; read-only but
 * for cancel, continue and stop. Serves until Ctrl-C. `ready` is told the address once it listens (for tests).
 */
export async function viewCommand(flags: ViewFlags, io: Io, ready?: (url: string) => void): Promise<number> {
  const host = flags.host ?? '127.0.0.1';
  const loopback = LOOPBACK.includes(host);
  if (flags.token !== undefined && !/^[A-Za-z0-9_-]{16,}$/.test(flags.token))
    throw new ConfigError(
      undefined,
      '--token',
      `takes 16 or more letters, digits, - or _, got ${JSON.stringify(flags.token)}`,
    );
  // Anyone who can reach a non-loopback address could cancel runs: a token it is, printed in the URL.
  const token = flags.token ?? (loopback ? undefined : randomBytes(18).toString('base64url'));
  const suite = await suiteOf({
    cwd: io.cwd,
    ...(flags.config ? { config: flags.config } : {}),
    ...(flags.helper ? { helper: flags.helper } : {}),
    ...(flags.search === false ? { search: false } : {}),
  });
  const saved = new SavedSnapshots(suite ? savedDirOf(suite) : undefined);
  const log = (line: string) => io.stderr.write(pc.dim(line) + '\n');
  const sourceOf = (linked: TemporalLink) => new TemporalSource(linked, casesByProject(suite), io.env);
  const linker = new Relinker(io.env, log, sourceOf, await linkIfRunning({ env: io.env, log }));
  const notice = downNotice(io.env);
  const stop = io.watchInterrupt?.();
  let served;
  try {
    served = await serveView(host, flags.port ?? DEFAULT_PORT, {
      ...(linker.link ? { source: sourceOf(linker.link) } : {}),
      relink: linker.relink,
      lost: () => {
        io.stderr.write(pc.yellow(notice) + '\n');
        linker.lost();
      },
      saved,
      ...(token ? { token } : {}),
      csrf: randomBytes(18).toString('base64url'),
      notice,
      labels: suiteLabels(),
    });
  } catch (error) {
    await linker.link?.close();
    if ((error as { code?: string }).code === 'EADDRINUSE')
      throw new ConfigError(
        undefined,
        '--port',
        `${flags.port ?? DEFAULT_PORT} is taken; pass another (0: any free port)`,
      );
    throw error;
  }
  // Listening on every address, it prints the machine's own: a URL naming 0.0.0.0 opens nowhere else.
  const urls = viewAddresses(host, networkInterfaces()).map(
    (address) => `http://${address}:${served.port}/${token ? `?token=${token}` : ''}`,
  );
  const url = urls[0]!;
  if (!linker.link) io.stderr.write(pc.yellow(notice) + '\n');
  const others = urls.slice(1).map((u) => `  or ${u}\n`);
  io.stdout.write(`llm-evals view: ${url}\n${others.join('')}(Ctrl-C stops it)\n`);
  ready?.(url);
  if (flags.open !== false) {
    // This machine's browser takes the loopback address, the last of them.
    const problem = await openInBrowser(urls.at(-1)!, io.env);
    if (problem) io.stderr.write(pc.dim(`not opened: ${problem}`) + '\n');
  }
  await new Promise<void>((resolve) => {
    if (!stop || stop.aborted) return stop?.aborted ? resolve() : undefined;
    stop.addEventListener('abort', () => resolve(), { once: true });
  });
  await served.close();
  await linker.link?.close();
  return 0;
}
