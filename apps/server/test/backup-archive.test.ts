import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { Header, type HeaderData, Pack, ReadEntry } from 'tar';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  BackupArchiveError,
  BackupArchiveWriter,
  unpackBackup,
} from '../src/platform/io/backup-archive.js';

/**
 * The backup archive's format (platform/io/backup-archive.ts), below `npm run backup` and
 * `npm run restore`, which backup.process.test.ts runs whole: archives of the hand-written
 * tar code that node-tar replaced still restore; what it writes, it and GNU tar read back;
 * and an archive that is damaged, or holds what no backup does, is refused.
 */

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'merit-backup-archive-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** `size` bytes that depend on `name` and do not compress. */
function content(name: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(name).digest();
  for (let i = 0; i < size; i += block.length) {
    block.copy(out, i);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/** Every folder (ending "/") and file under `dir`, with each file's size and mode. */
async function tree(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const name of await readdir(dir, { recursive: true })) {
    const info = await stat(path.join(dir, name));
    if (info.isDirectory()) found[`${name}/`] = 'folder';
    else found[name] = `${info.size} bytes, mode ${(info.mode & 0o777).toString(8)}`;
  }
  return found;
}

/**
 * backup-hand-written-tar.tar.gz was written by the TarWriter of the hand-written tar code
 * (lib/tar.ts, later platform/io/tar.ts) as `npm run backup` used it: the manifest, db/
 * from a dump (files 0o600), then the data folder's entries, each file `content(name, size)`,
 * every entry dated 2026-01-02T03:04:05Z. Names over 100 bytes have a pax header, as that
 * code wrote them; one name fills the 100-byte field without a NUL.
 */
const OLD_FILES: Array<[string, number]> = [
  ['db/PG_VERSION', 3],
  ['db/global/1214', 0],
  ['db/global/1213', 8192],
  ['db/base/5/16384', 513],
  [`files/ab/${'n'.repeat(141)}`, 700],
  [`files/ab/${'ü'.repeat(60)}`, 10],
  [`files/cd/${'c'.repeat(91)}`, 100],
  [`files/${'x'.repeat(120)}/${'y'.repeat(140)}`, 1],
  ['outbox/1.eml', 512],
  ['uploads/0a1b2c', 1000],
  ['uploads/0a1b2c.json', 0],
  ['secret.key', 32],
];
const OLD_FOLDERS = [
  'db/',
  'db/global/',
  'db/base/',
  'db/base/5/',
  'files/',
  'files/ab/',
  'files/cd/',
  `files/${'x'.repeat(120)}/`,
  'outbox/',
  'uploads/',
];

describe('backup archive', () => {
  it('restores an archive of the hand-written tar code node-tar replaced, byte for byte', async () => {
    const into = await folder();
    const { manifest, files } = await unpackBackup(
      path.join(fixtures, 'backup-hand-written-tar.tar.gz'),
      into,
    );
    expect(manifest).toEqual({
      format: 'merit-backup/1',
      createdAt: '2026-01-02T03:04:05.000Z',
      database: 'pglite',
      takenFrom: 'DATA_DIR, with no server running',
    });
    // Files besides the database's.
    expect(files).toBe(8);
    expect(await tree(into)).toEqual({
      ...Object.fromEntries(OLD_FOLDERS.map((name) => [name, 'folder'])),
      ...Object.fromEntries(OLD_FILES.map(([name, size]) => [name, `${size} bytes, mode 600`])),
    });
    for (const [name, size] of OLD_FILES)
      expect((await readFile(path.join(into, name))).equals(content(name, size)), name).toBe(true);
  });

  it('writes what it reads back, and what GNU tar reads: long names, a dump, a growing file', async () => {
    const dir = await folder();
    const archive = path.join(dir, 'backup.tar.gz');
    const when = new Date('2026-03-04T05:06:07.000Z');
    const names = {
      long: `files/${'a'.repeat(98)}/${'b'.repeat(150)}`, // over 255 bytes: pax
      split: `files/${'c'.repeat(90)}/${'d'.repeat(90)}`, // ustar's prefix and name
      unicode: `files/${'é'.repeat(80)}`,
      empty: 'outbox/empty.eml',
      block: 'outbox/block.eml',
      growing: 'uploads/in-progress',
    };
    const sources = path.join(dir, 'sources');
    await mkdir(sources);
    const source = (name: string) =>
      path.join(sources, createHash('sha256').update(name).digest('hex'));
    await writeFile(source(names.growing), content('growing', 5000));
    // PGlite's dump names its entries from the root.
    const dump = new Pack({ preservePaths: true });
    const dumpEntries: Array<[HeaderData, Buffer]> = [
      [{ path: '/base/', type: 'Directory' }, Buffer.alloc(0)],
      [{ path: '/base/1', type: 'File', size: 700 }, content('/base/1', 700)],
      [{ path: '/PG_VERSION', type: 'File', size: 3 }, Buffer.from('17\n')],
      [{ path: '/link', type: 'SymbolicLink', linkpath: '/etc/passwd' }, Buffer.alloc(0)],
    ];
    for (const [header, data] of dumpEntries) {
      const entry = new ReadEntry(new Header({ mode: 0o644, mtime: when, ...header }));
      dump.add(entry);
      entry.end(data);
    }
    dump.end();
    const chunks: Buffer[] = [];
    for await (const chunk of dump) chunks.push(chunk as Buffer);

    const tar = new BackupArchiveWriter(archive);
    await tar.buffer('merit-backup.json', Buffer.from('{"format":"merit-backup/1"}\n'), when);
    await tar.directory('db', when);
    await tar.tar(Buffer.concat(chunks), 'db', 0o600);
    await tar.directory('files', when);
    for (const name of [names.long, names.split]) {
      await tar.directory(path.dirname(name), when);
      await writeFile(source(name), content(name, 1234));
      await tar.file(name, source(name), 1234, when, 0o100644);
    }
    await writeFile(source(names.unicode), content(names.unicode, 77));
    await tar.file(names.unicode, source(names.unicode), 77, when);
    await tar.directory('outbox', when);
    await tar.buffer(names.empty, Buffer.alloc(0), when, 0o600);
    await tar.buffer(names.block, content(names.block, 512), when, 0o600);
    await tar.directory('uploads', when);
    // An upload in progress: the archive holds the size the backup saw, not what came since.
    await tar.file(names.growing, source(names.growing), 3000, when, 0o600);
    await tar.finish();

    const into = path.join(dir, 'restored');
    await rm(sources, { recursive: true });
    const { manifest, files } = await unpackBackup(archive, into);
    expect(manifest).toEqual({ format: 'merit-backup/1' });
    expect(files).toBe(6);
    expect(await tree(into)).toEqual({
      'db/': 'folder',
      'db/base/': 'folder',
      'db/base/1': '700 bytes, mode 600',
      'db/PG_VERSION': '3 bytes, mode 600',
      'files/': 'folder',
      [`${path.dirname(names.long)}/`]: 'folder',
      [names.long]: '1234 bytes, mode 600',
      [`${path.dirname(names.split)}/`]: 'folder',
      [names.split]: '1234 bytes, mode 600',
      [names.unicode]: '77 bytes, mode 600',
      'outbox/': 'folder',
      [names.empty]: '0 bytes, mode 600',
      [names.block]: '512 bytes, mode 600',
      'uploads/': 'folder',
      [names.growing]: '3000 bytes, mode 600',
    });
    expect((await readFile(path.join(into, names.long))).equals(content(names.long, 1234))).toBe(
      true,
    );
    expect(
      (await readFile(path.join(into, names.growing))).equals(
        content('growing', 5000).subarray(0, 3000),
      ),
    ).toBe(true);

    // GNU tar, where there is one, reads the same names, owned by no one.
    const listing = spawnSync('tar', ['-tvzf', archive], { encoding: 'utf8' });
    if (listing.error) return;
    expect(listing.status, listing.stderr).toBe(0);
    const lines = listing.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s+/)[1])).toEqual(lines.map(() => '0/0'));
    const listed = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' }).stdout;
    // A folder's name over 100 bytes loses its slash where node-tar splits it between
    // ustar's two name fields; its type still says folder.
    expect(listed.trim().split('\n')).toEqual([
      'merit-backup.json',
      'db/',
      'db/base/',
      'db/base/1',
      'db/PG_VERSION',
      'files/',
      path.dirname(names.long),
      names.long,
      `${path.dirname(names.split)}/`,
      names.split,
      names.unicode,
      'outbox/',
      names.empty,
      names.block,
      'uploads/',
      names.growing,
    ]);
  });

  it('stops at a file that shrank while it was archived', async () => {
    const dir = await folder();
    await writeFile(path.join(dir, 'short'), 'abc');
    const tar = new BackupArchiveWriter(path.join(dir, 'backup.tar.gz'));
    await expect(tar.file('files/short', path.join(dir, 'short'), 10, new Date())).rejects.toThrow(
      'shrank from 10 to 3 bytes while being backed up',
    );
  });

  /** A gzipped tar archive: the manifest, then `entries` as given (node-tar keeps odd paths). */
  async function craft(file: string, entries: HeaderData[]): Promise<void> {
    const pack = new Pack({ preservePaths: true });
    const manifest = Buffer.from('{"format":"merit-backup/1"}');
    const all: Array<[HeaderData, Buffer]> = [
      [{ path: 'merit-backup.json', type: 'File', size: manifest.length }, manifest],
      ...entries.map((header): [HeaderData, Buffer] => [
        header,
        content(header.path ?? '', header.size ?? 0),
      ]),
    ];
    for (const [header, data] of all) {
      const entry = new ReadEntry(new Header({ mode: 0o644, mtime: new Date(), ...header }));
      pack.add(entry);
      entry.end(data);
    }
    pack.end();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    await writeFile(file, gzipSync(Buffer.concat(chunks)));
  }

  it('refuses entries that could land outside the folder, links and what no backup holds', async () => {
    const dir = await folder();
    const cases: Array<[HeaderData, string]> = [
      [
        { path: '../escaped', type: 'File', size: 5 },
        'The archive holds an unsafe path: "../escaped".',
      ],
      [
        { path: 'files/../../escaped', type: 'File', size: 5 },
        'The archive holds an unsafe path: "files/../../escaped".',
      ],
      [
        { path: '/tmp/escaped', type: 'File', size: 5 },
        'The archive holds an unsafe path: "/tmp/escaped".',
      ],
      [{ path: './files', type: 'Directory' }, 'The archive holds an unsafe path: "./files".'],
      [
        { path: 'backup.sock', type: 'File', size: 1 },
        'The archive holds "backup.sock", which no backup has.',
      ],
      [
        { path: '.restore-abc/x', type: 'File', size: 1 },
        'The archive holds ".restore-abc/x", which no backup has.',
      ],
      [
        { path: 'files/passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' },
        'The archive holds "files/passwd", a SymbolicLink entry, which no backup has.',
      ],
      [
        { path: 'files/hard', type: 'Link', linkpath: 'merit-backup.json' },
        'The archive holds "files/hard", a Link entry, which no backup has.',
      ],
      [
        { path: 'files/fifo', type: 'FIFO' },
        'The archive holds "files/fifo", a FIFO entry, which no backup has.',
      ],
    ];
    for (const [n, [header, message]] of cases.entries()) {
      const archive = path.join(dir, 'crafted.tar.gz');
      await craft(archive, [
        { path: 'files/', type: 'Directory' },
        { path: 'files/fine', type: 'File', size: 3 },
        header,
      ]);
      const into = path.join(dir, `case-${n}`, 'data');
      const refused = unpackBackup(archive, into);
      await expect(refused, header.path).rejects.toThrow(BackupArchiveError);
      await expect(refused, header.path).rejects.toThrow(message);
      // Nothing beside the folder, nor a link in it.
      expect(await readdir(path.dirname(into))).toEqual(['data']);
      expect(await tree(into)).toEqual({ 'files/': 'folder', 'files/fine': '3 bytes, mode 600' });
    }
    expect((await readdir(dir)).filter((name) => name.includes('escaped'))).toEqual([]);
  });

  it('refuses a damaged or cut-short archive, and unpacks nothing without a manifest first', async () => {
    const dir = await folder();
    const good = path.join(dir, 'good.tar.gz');
    await craft(good, [
      { path: 'files/', type: 'Directory' },
      { path: 'files/big', type: 'File', size: 100_000 },
    ]);
    const tar = gunzipSync(await readFile(good));
    const attempt = async (name: string, bytes: Buffer) => {
      await writeFile(path.join(dir, name), bytes);
      return unpackBackup(path.join(dir, name), path.join(dir, `${name}-into`));
    };

    const damaged = Buffer.from(tar);
    damaged.writeUInt8(damaged.readUInt8(512 * 3 + 10) ^ 1, 512 * 3 + 10); // files/big's name
    await expect(attempt('damaged.tar.gz', gzipSync(damaged))).rejects.toThrow(
      'The archive is damaged (a header checksum does not match).',
    );
    // Cut short: in the gzip stream, in the tar stream, and before the end blocks.
    const gz = await readFile(good);
    for (const [name, bytes] of [
      ['cut-gzip.tar.gz', gz.subarray(0, gz.length >> 1)],
      ['cut-tar.tar.gz', gzipSync(tar.subarray(0, 512 * 6 + 100))],
      ['no-end.tar.gz', gzipSync(tar.subarray(0, tar.length - 1024))],
      ['tiny.tar.gz', gzipSync(Buffer.from('hi\n'))],
    ] as const) {
      await expect(attempt(name, bytes), name).rejects.toThrow(
        'The archive ends in the middle (it is truncated).',
      );
    }
    // Not gzip at all: zlib's own error, which restore words for itself.
    await expect(attempt('junk.tar.gz', Buffer.from('not a backup'))).rejects.toMatchObject({
      code: 'Z_DATA_ERROR',
    });

    const other = path.join(dir, 'other.tar.gz');
    const pack = new Pack();
    const entry = new ReadEntry(
      new Header({ path: 'notes.txt', type: 'File', size: 2, mode: 0o644 }),
    );
    pack.add(entry);
    entry.end(Buffer.from('hi'));
    pack.end();
    await pipeline(pack, createGzip(), createWriteStream(other));
    const into = path.join(dir, 'other-into');
    expect(await unpackBackup(other, into)).toEqual({ manifest: undefined, files: 0 });
    expect(await tree(into).catch(() => ({}))).toEqual({});
  });
});
