import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { PdfWorker } from './pdf-worker.js';

/**
 * The PDF worker's limits (ASVS V12.1.2): a job that runs out of time or memory answers
 * why, and the next job gets a fresh worker.
 */
async function onePage(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage();
  return doc.save();
}

/** An object stream of an array of ten million numbers: small, but a heap's worth of objects. */
function heapFiller(): Uint8Array {
  const packed = deflateSync(Buffer.from(`5 0\n[${'0 '.repeat(10_000_000)}]`));
  const body = [
    '%PDF-1.7',
    '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj',
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj',
    `4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
  ].join('\n');
  return Buffer.concat([
    Buffer.from(body),
    packed,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Size 5 /Root 1 0 R >>\n%%EOF\n'),
  ]);
}

const inspect = (bytes: Uint8Array) =>
  ({ kind: 'inspect', bytes, maxPages: 2000, tooManyPages: 'too many pages' }) as const;

describe('the PDF worker', () => {
  it('answers when a job takes longer than it may', async () => {
    const worker = new PdfWorker({ heapMb: 64, timeoutMs: 1 });
    try {
      expect(await worker.run(inspect(await onePage()))).toEqual({
        failed: 'reading it took longer than the 0.001 seconds one file may take',
        at: null,
      });
    } finally {
      await worker.close();
    }
  });

  it('answers when a file fills its heap, then reads the next file in a fresh worker', async () => {
    const worker = new PdfWorker({ heapMb: 64, timeoutMs: 30_000 });
    try {
      expect(await worker.run(inspect(heapFiller()))).toEqual({
        failed:
          'reading it needed more than the 64 MB of memory one file may use (it may be a decompression bomb)',
        at: null,
      });
      expect(await worker.run(inspect(await onePage()))).toMatchObject({ pages: 1 });
    } finally {
      await worker.close();
    }
  }, 60_000);
});
