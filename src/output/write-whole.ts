import {
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

/**
 * Thrown when a snapshot or report could not be written (disk full, no permission): names the file and the cause,
 * and says how to write it again; exit 1, since the run itself is not at fault and its results are kept elsewhere.
 */
export class WriteFailed extends Error {
  readonly type = 'WriteFailed';
  readonly exitCode = 1;

  constructor(
    readonly file: string,
    readonly code: string | undefined,
    again: string,
    options?: { cause?: unknown },
  ) {
    const why = options?.cause instanceof Error ? options.cause.message : String(options?.cause);
    super(
      `could not write ${shownPath(file)} (${why}); nothing was left half-written there. ${again}`,
      options,
    );
  }
}

/** A path as a user types it in the shell it runs from: relative when under the working directory, quoted if needed. */
export function shownPath(file: string, cwd = process.cwd()): string {
  const near = relative(cwd, file);
  const path = near && !near.startsWith('..') ? near : file;
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** How many bytes are gathered before they are written: few writes, and never the whole file in one string. */
const BYTES_PER_WRITE = 1 << 20;

/**
 * Writes text that comes in pieces, a megabyte at a time, each piece encoded into one buffer that is used again: a
 * file larger than V8's longest string can be written, and a snapshot of 200,000 results is not copied into strings
 * of a megabyte first (each one a large object, left for the old generation's collector).
 */
function writePieces(file: string, pieces: Iterable<string>): void {
  const fd = openSync(file, 'w');
  const buffer = Buffer.allocUnsafe(BYTES_PER_WRITE);
  let used = 0;
  const write = (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
  };
  const flush = () => {
    write(buffer.subarray(0, used));
    used = 0;
  };
  try {
    for (const piece of pieces) {
      // A UTF-16 code unit takes at most 3 bytes in UTF-8.
      if (used + piece.length * 3 > buffer.length) flush();
      if (piece.length * 3 > buffer.length) write(Buffer.from(piece));
      else used += buffer.write(piece, used);
    }
    flush();
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a file whole or not at all: into a temporary file beside it, then renamed over it, so a full disk or a
 * killed process never leaves a truncated snapshot or report where a good one is expected. `again` is the advice a
 * failure ends with (the command that writes the file again). `copyOf`: the text is that file's, copied; `pieces`:
 * the text in pieces, for a file too large to hold as one string.
 */
export function writeWhole(
  file: string,
  text: string | { copyOf: string } | { pieces: Iterable<string> },
  again: string,
): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    mkdirSync(dirname(file), { recursive: true });
    if (typeof text === 'string') writeFileSync(temp, text);
    else if ('copyOf' in text) copyFileSync(text.copyOf, temp);
    else writePieces(temp, text.pieces);
    renameSync(temp, file);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // A folder that refused the write may refuse the clean-up too; the failure to report is the write's.
    }
    throw new WriteFailed(file, (error as NodeJS.ErrnoException).code, again, { cause: error });
  }
}
