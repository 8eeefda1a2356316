import { fileFields, formatBytes, isPdf } from '@merit/domain';
import type { Content } from 'pdfmake/interfaces';
import type { ExtractFile, ExtractInput, ReadFileBytes, StoredFile } from './extract-input.js';
import { entriesOf } from './extract-schema-walk.js';
import { muted } from './extract-text.js';
import type { PdfWorker } from './pdf-worker.js';

/**
 * The files the proposal extract's file fields name: which of them are read, within the
 * caps on bytes and pages, each PDF inspected in the PDF worker; and what a file field
 * then shows and which PDFs are merged after the extract.
 */

/**
 * The most pages of uploaded PDFs one extract merges. Proposals attach CVs, letters and
 * papers: 2,000 pages is more than any committee reads, and it bounds the work of copying
 * pages (their objects are parsed and copied) whatever a file's bytes say. A file that
 * would pass it is named, not merged, as for the cap on bytes.
 */
export const MAX_MERGED_PAGES = 2000;

export type { StoredFile } from './extract-input.js';

/** The file a file field's value names; null when the value is no file id at all. */
export type Shelf = (value: unknown) => StoredFile | null;

/** A PDF to merge after the extract, headed by a separator page. */
export interface Attachment {
  fileId: number;
  form: string;
  entry: number | null;
  field: string;
  fileName: string;
  pdf: Uint8Array | null;
  problem?: string;
}

export function fileId(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^[1-9][0-9]{0,15}$/.test(text.trim())
    ? Number(text.trim())
    : null;
}

/**
 * Reads every file the file fields name, each once. Only ids in `input.files` are read:
 * an answer could name another proposal's file, and its bytes must not leak in here.
 * PDFs are read in the forms' order while their sizes add up to at most `cap` bytes and
 * their pages to at most MAX_MERGED_PAGES; a PDF that would go past either is named as
 * left out (a proposal of many large files would otherwise hold the server's memory for
 * one download). Each PDF is inspected in the PDF worker.
 */
export async function loadFiles(
  input: ExtractInput,
  readBytes: ReadFileBytes,
  cap: number,
  worker: PdfWorker,
): Promise<Map<number, StoredFile>> {
  const known = new Map(input.files.map((file) => [file.id, file]));
  const loaded = new Map<number, StoredFile>();
  let merged = 0;
  let pages = 0;
  for (const form of input.forms) {
    const fields = fileFields(form.jsonSchema, form.uiSchema);
    for (const entry of entriesOf(form)) {
      for (const field of fields) {
        const id = fileId(entry[field]);
        const file = id === null ? undefined : known.get(id);
        if (!file || loaded.has(file.id)) continue;
        if (merged + file.size > cap) {
          loaded.set(file.id, {
            kind: 'unreadable',
            name: file.name,
            problem: `the files merged into one extract are limited to ${formatBytes(cap)} in all, and this one would go past it`,
          });
          continue;
        }
        const tooManyPages = `the files merged into one extract are limited to ${MAX_MERGED_PAGES.toLocaleString('en')} pages in all, and this one would go past it`;
        let stored = await loadFile(file, readBytes, worker, MAX_MERGED_PAGES, tooManyPages);
        if (stored.kind === 'pdf' && pages + stored.pages > MAX_MERGED_PAGES)
          stored = { kind: 'unreadable', name: file.name, problem: tooManyPages };
        if (stored.kind === 'pdf') {
          merged += file.size;
          pages += stored.pages;
        }
        loaded.set(file.id, stored);
      }
    }
  }
  return loaded;
}

export function shelfOf(loaded: Map<number, StoredFile>): Shelf {
  return (value) => {
    const id = fileId(value);
    return id === null ? null : (loaded.get(id) ?? { kind: 'unknown' });
  };
}

async function loadFile(
  file: ExtractFile,
  readBytes: ReadFileBytes,
  worker: PdfWorker,
  maxPages: number,
  tooManyPages: string,
): Promise<StoredFile> {
  const name = file.name;
  const bytes = await readBytes(file.id);
  if (!bytes) return { kind: 'missing', name };
  if (!isPdf(bytes)) return { kind: 'other', name };
  const inspected = await worker.run({ kind: 'inspect', bytes, maxPages, tooManyPages });
  if ('pages' in inspected) return { kind: 'pdf', name, bytes, pages: inspected.pages };
  const problem =
    'problem' in inspected
      ? inspected.problem
      : 'failed' in inspected
        ? inspected.failed
        : 'it could not be read';
  return { kind: 'unreadable', name, problem };
}

/** The text a file field shows in its form's section. */
export function fileAnswer(file: StoredFile): Content {
  switch (file.kind) {
    case 'unknown':
      return muted('A file that is not part of this proposal');
    case 'missing':
      return { text: [file.name, muted(' (the file is missing)')] };
    case 'other':
      return { text: [file.name, muted(' (not a PDF, so not included in this extract)')] };
    case 'pdf':
      return { text: [file.name, muted(' (included after the answers)')] };
    case 'unreadable':
      return { text: [file.name, muted(` (could not be included: ${file.problem})`)] };
  }
}
