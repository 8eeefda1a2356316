import { createRequire } from 'node:module';
import { PDFParse } from 'pdf-parse';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfWorkerPool } from '../files/files-access.js';
import { letterPdf, type LetterPdfInput } from './letter-pdf.js';

/**
 * A decision letter's PDF is laid out here and rendered in a PDF worker thread: what the
 * letter says reaches the PDF, and this thread never loads pdfmake.
 */
const pool = new PdfWorkerPool(1);
afterAll(() => pool.close());

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

const letter = (n: number): LetterPdfInput => ({
  committeeName: 'Telescope Allocation Committee',
  subject: `The decision on your proposal number ${n}`,
  html: `<p>Dear Ada &lt;Lovelace&gt;,</p><p>Your proposal ${n} was <strong>approved</strong>.</p><ul><li>3 nights at Parkes</li></ul>`,
  date: new Date('2025-06-07T08:09:10Z'),
});

describe('a decision letter’s PDF', () => {
  it('has the letter’s text, rendered in a worker of the pool', async () => {
    const text = await textOf(await letterPdf(letter(1), { pool }));
    for (const line of [
      'Telescope Allocation Committee',
      '7 Jun 2025',
      'The decision on your proposal number 1',
      'Dear Ada <Lovelace>,',
      'Your proposal 1 was approved.',
      '3 nights at Parkes',
    ])
      expect(text).toContain(line);
  });

  it('is the same from the pool’s kept worker as from a worker of its own', async () => {
    const [kept, own] = await Promise.all([
      letterPdf(letter(2), { pool }).then(textOf),
      letterPdf(letter(2)).then(textOf),
    ]);
    expect(kept).toContain('Your proposal 2 was approved.');
    expect(kept).toBe(own);
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    expect(loaded.filter((file) => /[\\/]node_modules[\\/]pdfmake[\\/]/.test(file))).toEqual([]);
  });
});
