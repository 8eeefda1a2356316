import { parentPort } from 'node:worker_threads';
import { constants, inflateSync } from 'node:zlib';
import { pdfRenderer, robotoFonts } from '@merit/pdf';
import type { PDFRawStream } from 'pdf-lib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFObjectStreamParser,
  PDFPageLeaf,
  PDFXRefStreamParser,
} from 'pdf-lib';
import { layOut } from './extract-layout.js';
import type { PdfJob, PdfReply } from './pdf-worker.js';

/**
 * The worker thread of the proposal extract, started by pdf-worker.ts with limits on its
 * heap and its time: it parses uploaded PDFs (ASVS V12.1.2), lays the extract's pages out
 * and merges them, and renders documents laid out elsewhere (decision letters). Whatever a
 * PDF makes pdf-lib do, or a long proposal pdfmake, it does it here, where running out of
 * memory or time ends this thread and not the server.
 *
 * pdf-lib inflates a PDF's object streams and cross-reference streams as it loads it, into
 * buffers outside the heap that the thread's limits do not count. So their inflated size
 * is measured first, with zlib and a ceiling, and a file whose streams inflate past
 * INFLATED_BYTES_PER_FILE is refused before pdf-lib inflates any of them.
 */

/**
 * What one file's object and cross-reference streams may inflate to in all. They hold a
 * PDF's structure, not its pages' content or images (which pdf-lib copies as they are):
 * real files need kilobytes to a few megabytes; a decompression bomb needs gigabytes.
 */
export const INFLATED_BYTES_PER_FILE = 64 * 1024 * 1024;

const FLATE = PDFName.of('FlateDecode');
const tooMuch = `its compressed structure inflates to more than ${INFLATED_BYTES_PER_FILE / (1024 * 1024)} MB, more than any real PDF needs (it may be a decompression bomb)`;
const unknownFilter = 'it packs its structure with a compression the extract does not read';

/** Inflate budget of the file being loaded, and why it was refused, if it was. */
let budget = INFLATED_BYTES_PER_FILE;
let refusal: string | null = null;

/** Measures what `stream` inflates to, against the budget, before pdf-lib inflates it. */
function measure(stream: PDFRawStream): void {
  if (refusal) throw new Error(refusal);
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters =
    filter instanceof PDFArray ? filter.asArray() : filter === undefined ? [] : [filter];
  let bytes: Uint8Array = stream.contents;
  for (const each of filters) {
    // Other filters (LZW, run-length) can expand as much, and zlib cannot measure them.
    if (each !== FLATE) refusal = unknownFilter;
    else {
      try {
        bytes = inflateSync(bytes, {
          maxOutputLength: Math.max(1, budget),
          // A stream cut short still inflates as far as it goes, as pdf-lib reads it.
          finishFlush: constants.Z_SYNC_FLUSH,
        });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') refusal = tooMuch;
        // Anything else is a broken stream, which pdf-lib reports in its own way.
        else return;
      }
    }
    if (refusal) throw new Error(refusal);
  }
  budget -= bytes.length;
  if (budget < 0) refusal = tooMuch;
  if (refusal) throw new Error(refusal);
}

// pdf-lib's parser makes both kinds of parser through these static methods.
const parseObjectStream = PDFObjectStreamParser.forStream.bind(PDFObjectStreamParser);
PDFObjectStreamParser.forStream = (stream, shouldWaitForTick) => {
  measure(stream);
  return parseObjectStream(stream, shouldWaitForTick);
};
const parseXRefStream = PDFXRefStreamParser.forStream.bind(PDFXRefStreamParser);
PDFXRefStreamParser.forStream = (stream) => {
  measure(stream);
  return parseXRefStream(stream);
};

/**
 * Loads one PDF within the inflate budget. pdf-lib skips an object it cannot parse and
 * goes on, so a refusal is read from `refusal` afterwards, not only from a throw.
 */
async function load(bytes: Uint8Array): Promise<PDFDocument | { problem: string }> {
  budget = INFLATED_BYTES_PER_FILE;
  refusal = null;
  let pdf: PDFDocument;
  try {
    // Encrypted PDFs load only with ignoreEncryption, but their content stays encrypted
    // and pdf-lib cannot decrypt it: copied pages would come out blank or broken.
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch {
    return { problem: refusal ?? 'it is not a PDF that could be read' };
  }
  if (refusal) return { problem: refusal };
  if (pdf.isEncrypted) return { problem: 'it is encrypted' };
  return pdf;
}

/**
 * Whether the page tree holds more than `limit` pages, found by walking it with a budget:
 * a tree whose nodes list the same children again and again names billions of pages in a
 * few hundred bytes, and pdf-lib would list every one of them.
 */
function morePagesThan(pdf: PDFDocument, limit: number): boolean {
  const KIDS = PDFName.of('Kids');
  let leaves = 0;
  let visits = 0;
  const stack: PDFDict[] = [pdf.catalog.Pages()];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node instanceof PDFPageLeaf) {
      if (++leaves > limit) return true;
      continue;
    }
    const kids = node.lookup(KIDS);
    if (!(kids instanceof PDFArray)) continue;
    for (let i = 0; i < kids.size(); i += 1) {
      // Intermediate nodes too: ten for each page allowed is far more than real trees use.
      if (++visits > limit * 10) return true;
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) stack.push(kid);
    }
  }
  return false;
}

async function inspect(
  bytes: Uint8Array,
  maxPages: number,
  tooManyPages: string,
): Promise<PdfReply> {
  const pdf = await load(bytes);
  if (!(pdf instanceof PDFDocument)) return pdf;
  try {
    if (morePagesThan(pdf, maxPages)) return { problem: tooManyPages };
    const pages = pdf.getPageCount();
    return pages > 0 ? { pages } : { problem: 'it has no pages' };
  } catch {
    // A file can load yet have no page tree to follow.
    return { problem: 'its pages could not be read' };
  }
}

/**
 * Every page of every document, in order, each document's file (`owners`, undefined for
 * the extract's own pages) told to the server as it starts: if it kills this thread, the
 * server knows which file to leave out. The first that fails is named by its index.
 */
async function merge(
  job: Extract<PdfJob, { kind: 'extract' }>,
  documents: Uint8Array[],
  owners: (number | undefined)[],
): Promise<{ pdf: Uint8Array } | { failedAt: number; problem: string }> {
  const out = await PDFDocument.create();
  out.setTitle(job.input.proposalName);
  out.setSubject(`Proposal extract: ${job.input.callName}`);
  out.setCreator('Merit');
  for (const [index, bytes] of documents.entries()) {
    parentPort!.postMessage({ id: job.id, at: owners[index] ?? null } satisfies PdfReply);
    const pdf = await load(bytes);
    if (!(pdf instanceof PDFDocument)) return { failedAt: index, problem: pdf.problem };
    let pages;
    try {
      pages = await out.copyPages(pdf, pdf.getPageIndices());
    } catch {
      return { failedAt: index, problem: 'its pages could not be read' };
    }
    for (const page of pages) out.addPage(page);
  }
  return { pdf: await out.save() };
}

/**
 * The extract: its pages laid out (pdfmake), then merged with the PDFs. A file that loaded
 * alone may still fail in the merge (its pages' objects are only copied then): it is named
 * as left out and the extract is laid out again without it.
 */
async function extract(job: Extract<PdfJob, { kind: 'extract' }>): Promise<PdfReply> {
  const { input, loaded } = job;
  for (;;) {
    const { documents, owners } = await layOut(input, loaded);
    const merged = await merge(job, documents, owners);
    if ('pdf' in merged) return merged;
    const fileId = owners[merged.failedAt];
    const file = fileId === undefined ? undefined : loaded.get(fileId);
    // Only uploaded files can fail: the extract's own pages are made here.
    if (fileId === undefined || file?.kind !== 'pdf')
      return { problem: `merging the proposal extract failed: ${merged.problem}` };
    loaded.set(fileId, { kind: 'unreadable', name: file.name, problem: merged.problem });
  }
}

const render = pdfRenderer(robotoFonts);

/** A document its caller laid out (a decision letter), rendered. */
async function renderDocument(job: Extract<PdfJob, { kind: 'render' }>): Promise<PdfReply> {
  // A copy with an ArrayBuffer of its own to transfer: a small Buffer shares Node's pool.
  return { pdf: new Uint8Array(await render(job.definition)) };
}

parentPort!.on('message', (job: PdfJob) => {
  const work =
    job.kind === 'inspect'
      ? inspect(job.bytes, job.maxPages, job.tooManyPages)
      : job.kind === 'extract'
        ? extract(job)
        : renderDocument(job);
  void work
    // Answered, not thrown: a rejection here would end the thread and lose the reason.
    .catch((error: unknown): PdfReply => {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        problem:
          job.kind === 'inspect'
            ? 'it could not be read'
            : job.kind === 'extract'
              ? `making the proposal extract failed: ${reason}`
              : `rendering the PDF failed: ${reason}`,
      };
    })
    .then((reply) => {
      const transfer = 'pdf' in reply ? [reply.pdf.buffer as ArrayBuffer] : [];
      parentPort!.postMessage({ ...reply, id: job.id }, transfer);
    });
});
