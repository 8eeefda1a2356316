import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Just enough of the POSIX tar format (ustar, with pax headers for long names) for
 * backups: regular files and folders, streamed, so a backup never holds more than one
 * chunk of a stored file in memory. What it writes, `tar` reads, and the other way round.
 * (Node has no tar of its own; PGlite bundles one it does not export.)
 */
const BLOCK = 512;
const MAX_SIZE = 8 ** 11 - 1; // what 11 octal digits hold, 8 GiB
const TYPE_FILE = '0';
const TYPE_DIRECTORY = '5';
const TYPE_PAX = 'x';

function writeString(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'utf8');
}

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  writeString(header, offset, length, value.toString(8).padStart(length - 1, '0') + '\0');
}

function headerBlock(name: string, type: string, size: number, mode: number, mtime: Date): Buffer {
  const header = Buffer.alloc(BLOCK);
  writeString(header, 0, 100, name);
  writeOctal(header, 100, 8, mode & 0o7777);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, size);
  writeOctal(header, 136, 12, Math.floor(mtime.getTime() / 1000));
  header.fill(' ', 148, 156);
  writeString(header, 156, 1, type);
  writeString(header, 257, 6, 'ustar\0');
  writeString(header, 263, 2, '00');
  let sum = 0;
  for (const byte of header) sum += byte;
  writeString(header, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return header;
}

/** A pax record "<length> path=<name>\n", whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  while (String(length).length + Buffer.byteLength(body) !== length)
    length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`);
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes tar entries to `out` (say, a gzip stream in front of a file), respecting its back-pressure. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  private async header(name: string, type: string, size: number, mode: number, mtime: Date) {
    if (size > MAX_SIZE) throw new Error(`${name} is larger than a backup entry may be (8 GiB).`);
    if (Buffer.byteLength(name) > 100) {
      const pax = paxRecord('path', name);
      await this.write(headerBlock('PaxHeader', TYPE_PAX, pax.length, 0o644, mtime));
      await this.write(Buffer.concat([pax, padding(pax.length)]));
    }
    await this.write(headerBlock(name.slice(0, 100), type, size, mode, mtime));
  }

  async directory(name: string, mtime = new Date()): Promise<void> {
    await this.header(name.endsWith('/') ? name : `${name}/`, TYPE_DIRECTORY, 0, 0o755, mtime);
  }

  async buffer(name: string, data: Uint8Array, mtime = new Date(), mode = 0o644): Promise<void> {
    await this.header(name, TYPE_FILE, data.length, mode, mtime);
    await this.write(Buffer.concat([data, padding(data.length)]));
  }

  /**
   * The first `size` bytes of the file at `source` (its size when the backup looked at it:
   * a resumable upload may grow meanwhile, and its own record says how far it got).
   */
  async file(name: string, source: string, size: number, mtime: Date, mode = 0o644): Promise<void> {
    await this.header(name, TYPE_FILE, size, mode, mtime);
    let written = 0;
    if (size > 0) {
      for await (const chunk of createReadStream(source, { start: 0, end: size - 1 })) {
        written += (chunk as Buffer).length;
        await this.write(chunk as Buffer);
      }
    }
    if (written !== size)
      throw new Error(`${source} shrank from ${size} to ${written} bytes while being backed up.`);
    await this.write(padding(size));
  }

  /** The two empty blocks that end an archive; then ends `out`. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(2 * BLOCK));
    this.out.end();
  }
}

export interface TarEntry {
  name: string;
  type: 'file' | 'directory' | 'other';
  size: number;
  mode: number;
  mtime: Date;
}

/** Reads exactly the bytes asked for from a stream of chunks, copying as little as it can. */
class ChunkReader {
  private buffer: Buffer = Buffer.alloc(0);
  private done = false;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(input: Readable) {
    this.chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  private async fill(wanted: number): Promise<void> {
    while (this.buffer.length < wanted && !this.done) {
      const next = await this.chunks.next();
      if (next.done) this.done = true;
      else
        this.buffer =
          this.buffer.length === 0 ? next.value : Buffer.concat([this.buffer, next.value]);
    }
  }

  private take(count: number): Buffer {
    const taken = this.buffer.subarray(0, count);
    this.buffer = this.buffer.subarray(taken.length);
    return taken;
  }

  /** Up to `max` bytes (at least one unless the stream ended). */
  async some(max: number): Promise<Buffer> {
    await this.fill(1);
    return this.take(max);
  }

  async exactly(count: number): Promise<Buffer | null> {
    await this.fill(count);
    return this.buffer.length < count ? null : this.take(count);
  }
}

function readString(block: Buffer, offset: number, length: number): string {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = readString(block, offset, length).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

/**
 * The entries of a tar stream, in order. Each entry's body must be consumed with
 * `read` (whole, into memory) or `writeTo` (a file) before the next; otherwise it is skipped.
 */
export async function* readTar(input: Readable): AsyncGenerator<
  TarEntry & {
    read: () => Promise<Buffer>;
    writeTo: (file: string, mode?: number) => Promise<void>;
  }
> {
  const reader = new ChunkReader(input);
  let paxPath: string | undefined;
  for (;;) {
    const block = await reader.exactly(BLOCK);
    if (!block) throw new TarFormatError('The archive ends in the middle (it is truncated).');
    if (block.every((byte) => byte === 0)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : block[i]!;
    if (sum !== readOctal(block, 148, 8))
      throw new TarFormatError('The archive is damaged (a header checksum does not match).');
    const size = readOctal(block, 124, 12);
    const typeflag = readString(block, 156, 1) || TYPE_FILE;
    const prefix = readString(block, 345, 155);
    const shortName = readString(block, 0, 100);
    const name = paxPath ?? (prefix ? `${prefix}/${shortName}` : shortName);
    paxPath = undefined;
    let remaining = size;
    const skipPadding = async () => {
      if (!(await reader.exactly(padding(size).length)))
        throw new TarFormatError('The archive ends in the middle (it is truncated).');
    };
    const read = async () => {
      const data = await reader.exactly(remaining);
      if (!data) throw new TarFormatError('The archive ends in the middle (it is truncated).');
      remaining = 0;
      return data;
    };
    if (typeflag === TYPE_PAX) {
      const records = (await read()).toString('utf8');
      await skipPadding();
      for (const record of records.split('\n')) {
        const match = /^\d+ path=(.*)$/s.exec(record);
        if (match) paxPath = match[1];
      }
      continue;
    }
    const entry: TarEntry = {
      name,
      type:
        typeflag === TYPE_FILE || typeflag === '7'
          ? 'file'
          : typeflag === TYPE_DIRECTORY
            ? 'directory'
            : 'other',
      size,
      mode: readOctal(block, 100, 8),
      mtime: new Date(readOctal(block, 136, 12) * 1000),
    };
    yield {
      ...entry,
      read,
      writeTo: async (file: string, mode = 0o644) => {
        const out = createWriteStream(file, { mode });
        await pipeline(async function* () {
          while (remaining > 0) {
            const chunk = await reader.some(Math.min(remaining, 1 << 16));
            if (chunk.length === 0)
              throw new TarFormatError('The archive ends in the middle (it is truncated).');
            remaining -= chunk.length;
            yield chunk;
          }
        }, out);
      },
    };
    while (remaining > 0) {
      const chunk = await reader.some(Math.min(remaining, 1 << 16));
      if (chunk.length === 0)
        throw new TarFormatError('The archive ends in the middle (it is truncated).');
      remaining -= chunk.length;
    }
    await skipPadding();
  }
}
