import { once } from 'node:events';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createDeflate } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeForm, makeFormName } from './admin-fixtures.js';
import { makeProposal } from './call-fixtures.js';
import { ensureServerBuilt, freshPlace, seedAuthors, startServer } from './crash-fixtures.js';
import { makeCommittee, makeUser, testDatabaseKind } from './helpers.js';
import { makeProposalCall, makeProposalForms } from './proposal-fixtures.js';

/**
 * The files of the compiled server as `npm start` runs it (dist/main.js, whose proposal
 * PDF parses uploads in dist/pdf-worker.js): decompression bombs in attached PDFs
 * (ASVS V12.1.2), and DATA_DIR kept private to the account that runs Merit.
 */
beforeAll(() => ensureServerBuilt());

/**
 * `before`, then `bytes` of `piece` over and over, then `after`, deflated a piece at a time
 * (zeros: a gigabyte to a megabyte).
 */
async function deflated(
  bytes: number,
  piece = Buffer.alloc(16 * 1024 * 1024),
  [before, after] = ['', ''],
): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  deflate.write(before);
  for (let sent = 0; sent < bytes; sent += piece.length) {
    if (!deflate.write(piece)) await once(deflate, 'drain');
  }
  deflate.end(after);
  await once(deflate, 'end');
  return Buffer.concat(out);
}

/** A PDF of numbered objects (body text of each), with its cross-reference table. */
function pdfOfObjects(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body) : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
  ].join('\n');
  parts.push(Buffer.from(`${xref}\n`));
  return Buffer.concat(parts);
}

/** One page, and an object stream of `packed` bytes (deflated). */
function withObjectStream(packed: Buffer, first = 4): Buffer {
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    Buffer.concat([
      Buffer.from(
        `<< /Type /ObjStm /N 1 /First ${first} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
      ),
      packed,
      Buffer.from('\nendstream'),
    ]),
  ]);
}

/** An object stream that inflates to `inflated` bytes of zeros. */
async function inflateBomb(inflated: number): Promise<Buffer> {
  return withObjectStream(await deflated(inflated));
}

/**
 * An object stream within the inflate limit (60 MB) holding one array of thirty million
 * numbers: a few kilobytes that pdf-lib turns into gigabytes of objects on its heap.
 */
async function heapBomb(): Promise<Buffer> {
  const header = '5 0\n';
  const packed = await deflated(60_000_000, Buffer.from('0 '.repeat(500_000)), [`${header}[`, ']']);
  return withObjectStream(packed, header.length);
}

/**
 * A page tree whose every node lists the next one ten times, ten levels deep: a few
 * hundred bytes that name ten billion pages. Only memory or time stops whoever counts them.
 */
function pageTreeBomb(): Buffer {
  const levels = 10;
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < levels; level += 1) {
    const kid = `${level + 3} 0 R `.repeat(10);
    objects.push(`<< /Type /Pages /Kids [${kid}] /Count ${10 ** (levels - level)} >>`);
  }
  objects.push(`<< /Type /Page /Parent ${levels + 1} 0 R /MediaBox [0 0 612 792] >>`);
  return pdfOfObjects(objects);
}

async function pdfSaying(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText(text, {
    x: 50,
    y: 700,
    size: 14,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  return Buffer.from(await doc.save());
}

/** The highest resident memory the process has had so far (Linux's VmHWM), in MB. */
async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

/** Every file and folder under `dir`, with its permission bits. */
async function modesUnder(dir: string): Promise<{ path: string; mode: number }[]> {
  const found = [{ path: dir, mode: (await stat(dir)).mode & 0o777 }];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const info = await stat(full).catch(() => null);
    if (info) found.push({ path: full, mode: info.mode & 0o777 });
  }
  return found;
}

const LAID_OUT = /\s+/g;

describe('the proposal PDF and decompression bombs (V12.1.2)', () => {
  it('leaves out PDFs that inflate to 2 GB, name ten billion pages or fill the heap, says why, merges the ordinary one, and stays up and small', async () => {
    const place = await freshPlace();
    const fields = {
      cv: 'CV (PDF)',
      letter: 'Letter (PDF)',
      paper: 'Paper (PDF)',
      data: 'Data (PDF)',
    };
    let proposalId = 0;
    let formId = 0;
    let proposalTypeId = 0;
    let callId = 0;
    const seeded = await seedAuthors(place, 1, async (app, { authors }) => {
      const form = await makeForm(app, (await makeFormName(app, { type: 0 })).id, {
        jsonSchema: {
          type: 'object',
          properties: Object.fromEntries(
            Object.entries(fields).map(([name, title]) => [
              name,
              { type: 'string', format: 'data-url', title },
            ]),
          ),
        },
      });
      const made = await makeProposalCall(app, {
        committeeId: (await makeCommittee(app)).id,
        forms: await makeProposalForms(app),
        admin: { id: (await makeUser(app, { isAdmin: true })).id, isAdmin: true },
        proposalForms: [form.id],
      });
      formId = form.id;
      proposalTypeId = made.typeId;
      callId = made.callId;
      proposalId = (
        await makeProposal(app, {
          callId: made.callId,
          proposalTypeId: made.typeId,
          authorId: authors[0]!.userId,
        })
      ).id;
    });
    const { key } = seeded.authors[0]!;
    const server = await startServer(place);
    const headers = { authorization: `Token ${key}` };

    // Two gigabytes from two megabytes.
    const bomb = await inflateBomb(2048 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(3 * 1024 * 1024);
    const ids: Record<string, string> = {};
    for (const [field, bytes] of [
      ['cv', await pdfSaying('An ordinary attached page')],
      ['letter', bomb],
      ['paper', pageTreeBomb()],
      ['data', await heapBomb()],
    ] as const) {
      const form = new FormData();
      form.append('token', key);
      form.append('proposal', String(proposalId));
      form.append('form', String(formId));
      form.append('field', field);
      form.append('file', new Blob([new Uint8Array(bytes)]), `${field}.pdf`);
      const res = await fetch(`${server.url}/api/v1/proposal_response_pdf/`, {
        method: 'POST',
        body: form,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      ids[field] = String(((await res.json()) as { fileId: number }).fileId);
    }
    const saved = await fetch(`${server.url}/api/v1/proposal_responses/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        call: callId,
        proposalTypeId,
        proposal: proposalId,
        new: false,
        hash: 7,
        formId,
        index: 0,
        singleSave: true,
        validate: true,
        data: ids,
      }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    // The uploads the server stored are its account's alone (0600).
    for (const { path: file, mode } of await modesUnder(path.join(place.dataDir, 'files')))
      expect(mode & 0o077, `${file} is ${mode.toString(8)}`).toBe(0);

    const pid = server.child.pid!;
    const before = await peakRssMb(pid);
    const ticket = await fetch(`${server.url}/api/v1/download_tickets/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ proposalExtract: proposalId }),
    });
    expect(ticket.status).toBe(200);
    const extract = await fetch(`${server.url}${((await ticket.json()) as { url: string }).url}`);
    expect(extract.status, await extract.clone().text()).toBe(200);
    const parser = new PDFParse({ data: new Uint8Array(await extract.arrayBuffer()) });
    const text = (await parser.getText()).text.replace(LAID_OUT, ' ');
    await parser.destroy();

    // The ordinary PDF is merged; the bombs are named, each with its reason.
    expect(text).toContain('An ordinary attached page');
    expect(text).toContain('cv.pdf (included after the answers)');
    expect(text).toContain(
      'letter.pdf (could not be included: its compressed structure inflates to more than 64 MB, more than any real PDF needs (it may be a decompression bomb))',
    );
    expect(text).toContain(
      'paper.pdf (could not be included: the files merged into one extract are limited to 2,000 pages in all, and this one would go past it)',
    );
    expect(text).toContain(
      'data.pdf (could not be included: reading it needed more than the 256 MB of memory one file may use (it may be a decompression bomb))',
    );
    expect(text).toContain(
      'File: data.pdf This file could not be included in the extract: reading it needed more than the 256 MB of memory one file may use (it may be a decompression bomb).',
    );
    // Inflated, the first would have taken two gigabytes more of the server's memory, and
    // the others as much as its heap allows; the worker's limits keep the peak (Linux's
    // high-water mark, which only grows) within a gigabyte more than before the download.
    const after = await peakRssMb(pid);
    expect(after - before, `peak RSS ${before} MB before, ${after} MB after`).toBeLessThan(1024);
    console.warn(`peak RSS ${before} MB before the bombs' download, ${after} MB after`);

    // Still up, and still serving.
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
    const again = await fetch(`${server.url}/api/v1/proposals/${proposalId}/`, { headers });
    expect(again.status).toBe(200);
    await server.stop();
  }, 180_000);
});

describe('DATA_DIR (private data files)', () => {
  it('is made owner-only by a first start, with everything in it', async () => {
    const place = await freshPlace();
    // A DATA_DIR that does not exist yet: the server makes it.
    const dataDir = path.join(place.dataDir, 'data');
    const server = await startServer({ ...place, dataDir });
    await server.stop();
    const entries = await modesUnder(dataDir);
    // On PGlite, the database's files (hundreds); on PostgreSQL, the folders for files.
    expect(entries.length).toBeGreaterThan(testDatabaseKind() === 'pglite' ? 100 : 1);
    expect(entries[0]).toEqual({ path: dataDir, mode: 0o700 });
    const readable = entries.filter((e) => (e.mode & 0o077) !== 0);
    expect(readable.map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
  }, 120_000);
});
