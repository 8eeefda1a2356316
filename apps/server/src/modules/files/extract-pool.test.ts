import { createRequire } from 'node:module';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PDFParse } from 'pdf-parse';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfWorkerThreads, PdfWorkerPool } from './pdf-worker.js';
import { renderProposalExtract, type ExtractInput } from './proposal-extract.js';

/**
 * The proposal extract's PDF work runs in a pool of worker threads (pdf-worker.ts): never
 * on the server's own thread, and never in more threads than the pool's size, however
 * many extracts are asked for at once.
 */
const POOL_SIZE = 2;
const pool = new PdfWorkerPool(POOL_SIZE);
afterAll(() => pool.close());

async function attachment(sentence: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([400, 300]).drawText(sentence, { x: 40, y: 150, size: 12, font });
  return Buffer.from(await doc.save());
}

/** Proposal `n`: a form with a long answer and an attached PDF. */
function proposal(n: number): ExtractInput {
  return {
    callName: 'Open Call 2025',
    proposalName: `Proposal number ${n}`,
    proposalTypeName: 'Research grant',
    author: 'Ada Lovelace',
    authorEmail: 'ada@example.org',
    collaborators: [],
    state: 'Submitted',
    created: new Date('2025-03-04T05:06:07Z'),
    lastModified: new Date('2025-04-05T17:08:59Z'),
    forms: [
      {
        id: 1,
        name: 'Project description',
        multi: false,
        jsonSchema: {
          type: 'object',
          properties: {
            summary: { type: 'string', title: 'Summary' },
            plan: { type: 'string', title: 'Work plan' },
          },
        },
        uiSchema: { plan: { 'ui:widget': 'file' } },
        answers: {
          summary: `Aim ${n}. ${'Several words of a long answer. '.repeat(40)}`,
          plan: '7',
        },
      },
    ],
    files: [{ id: 7, name: `plan-${n}.pdf`, contentType: 'application/pdf', size: 1000 }],
  };
}

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** Waits for terminated threads to have told their exit. */
async function threadsEnded() {
  for (let i = 0; i < 200 && pdfWorkerThreads.live > 0; i += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(pdfWorkerThreads.live).toBe(0);
}

describe('the PDF worker pool', () => {
  it(`makes ${POOL_SIZE + 2} extracts at once in at most ${POOL_SIZE} worker threads, each as made alone`, async () => {
    const inputs = Array.from({ length: POOL_SIZE + 2 }, (_, n) => proposal(n));
    const reader = (n: number) => async (id: number) =>
      id === 7 ? attachment(`The attached plan of proposal ${n}.`) : null;
    // Each alone, one after another, in one worker.
    const single = new PdfWorkerPool(1);
    const alone: string[] = [];
    for (const [n, input] of inputs.entries())
      alone.push(await textOf(await renderProposalExtract(input, reader(n), { pool: single })));
    await single.close();
    await threadsEnded();

    pdfWorkerThreads.peak = 0;
    const together = await Promise.all(
      inputs.map((input, n) => renderProposalExtract(input, reader(n), { pool })),
    );
    expect(pdfWorkerThreads.peak).toBe(POOL_SIZE);
    const texts = await Promise.all(together.map(textOf));
    expect(texts).toEqual(alone);
    for (const [n, text] of texts.entries()) {
      expect(text).toContain(`Proposal number ${n}`);
      expect(text).toContain(`The attached plan of proposal ${n}.`);
    }
    // The pool keeps its threads for the next extracts, and ends them when closed.
    expect(pdfWorkerThreads.live).toBe(POOL_SIZE);
    await pool.close();
    await threadsEnded();
  }, 60_000);

  it('lays the pages out in the worker: this thread never loads pdfmake', async () => {
    const own = new PdfWorkerPool(1);
    try {
      const text = await textOf(
        await renderProposalExtract(proposal(9), async () => attachment('Plan nine.'), {
          pool: own,
        }),
      );
      expect(text).toContain('Proposal number 9');
    } finally {
      await own.close();
    }
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    expect(loaded.filter((file) => /[\\/]node_modules[\\/]pdfmake[\\/]/.test(file))).toEqual([]);
  });
});
