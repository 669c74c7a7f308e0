import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `text` to `temporary`, then renames it over `file`, so a reader sees the whole old file, the whole new one,
 * or none, across a crash and with any number of writers. The folder is made only when the write finds it missing (a
 * new one, or one another process's `cache clear` removed): one call fewer on the hot path of every reply kept. A
 * temporary file the rename leaves behind is removed before the error goes up.
 */
export function replaceFile(file: string, temporary: string, text: string): void {
  try {
    writeFileSync(temporary, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(temporary), { recursive: true });
    writeFileSync(temporary, text);
  }
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
