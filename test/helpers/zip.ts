import { writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

/** One file of a zip made by {@link writeZip}: stored as is, or deflated (the way wheels store binaries). */
export interface ZipFile {
  name: string;
  data: Buffer;
  deflate?: boolean;
}

/** Write a real zip archive (local headers, central directory, end record) holding `files`, for wheel tests. */
export function writeZip(path: string, files: readonly ZipFile[]): void {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name);
    const body = file.deflate ? deflateRawSync(file.data) : file.data;
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt16LE(file.deflate ? 8 : 0, at + 4);
      header.writeUInt32LE(crc32(file.data), at + 10);
      header.writeUInt32LE(body.length, at + 14);
      header.writeUInt32LE(file.data.length, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    fields(central, 6);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, body);
    directory.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const size = directory.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(path, Buffer.concat([...parts, ...directory, end]));
}
