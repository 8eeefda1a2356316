import { fileFields, formatBytes, isPdf } from '@merit/domain';
import { pdfRenderer, robotoFonts } from '@merit/pdf';
import { Parser } from 'htmlparser2';
import type { Content, ContentText, StyleDictionary, TableCell } from 'pdfmake/interfaces';
import { PdfWorker, type PdfWorkerLimits } from './pdf-worker.js';

/**
 * The proposal extract (GET /download_proposal_extract/{proposalId}/): one PDF with the
 * proposal's facts, every form's answers under the schema's titles, and then the PDFs
 * uploaded to its file fields, each after a page that says which field it answers.
 *
 * Pure apart from the font files: the caller loads the proposal and hands over a reader
 * for file bytes. The input carries nothing of reviews, so an author's extract cannot
 * show any; keep it that way.
 */

export interface ExtractForm {
  id: number;
  /** The form's name, used as its section's heading. */
  name: string;
  jsonSchema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  /** A multi-entry form: `answers` is an array of entries in index order. */
  multi: boolean;
  /** null or [] when not answered. */
  answers: Record<string, unknown> | Record<string, unknown>[] | null;
}
export interface ExtractFile {
  id: number;
  name: string;
  contentType: string;
  /** Bytes, as stored: what counts against the cap on merged files. */
  size: number;
}
export interface ExtractInput {
  callName: string;
  proposalName: string;
  proposalTypeName: string;
  author: string;
  authorEmail: string;
  collaborators: { name: string; email: string }[];
  /** 'Draft' | 'Submitted' | 'Reviewed' */
  state: string;
  created: Date;
  lastModified: Date;
  /** In the call's order. */
  forms: ExtractForm[];
  /**
   * The proposal's files, which its file fields' values name by id written as text
   * ("12"). Only these are ever read.
   */
  files: ExtractFile[];
}
/** Reads a stored file's bytes (for merging PDFs); null when missing. */
export type ReadFileBytes = (fileId: number) => Promise<Buffer | null>;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const render = pdfRenderer(robotoFonts);

const colors = { text: '#1f2328', muted: '#59636e', accent: '#1d4f91', rule: '#d0d7de' };

const styles: StyleDictionary = {
  kicker: { fontSize: 9, bold: true, color: colors.muted, characterSpacing: 0.6 },
  title: { fontSize: 22, bold: true, color: colors.accent, margin: [0, 2, 0, 2] },
  subtitle: { fontSize: 12, color: colors.muted, margin: [0, 0, 0, 14] },
  factLabel: { bold: true, color: colors.muted },
  formHeading: { fontSize: 16, bold: true, color: colors.accent, margin: [0, 18, 0, 8] },
  entryHeading: { fontSize: 13, bold: true, color: colors.text, margin: [0, 8, 0, 6] },
  groupHeading: { fontSize: 11, bold: true, color: colors.text, margin: [0, 4, 0, 4] },
  label: { fontSize: 9.5, bold: true, color: colors.muted, margin: [0, 0, 0, 1] },
  empty: { italics: true, color: colors.muted },
  footer: { fontSize: 8.5, color: colors.muted },
  separatorTitle: { fontSize: 20, bold: true, color: colors.accent, margin: [0, 4, 0, 16] },
  separatorNote: { fontSize: 11, color: colors.muted, margin: [0, 16, 0, 0] },
};

const defaultStyle = { font: 'Roboto', fontSize: 10.5, lineHeight: 1.2, color: colors.text };
const PAGE_MARGINS: [number, number, number, number] = [56, 56, 56, 56];

/**
 * The most pages of uploaded PDFs one extract merges. Proposals attach CVs, letters and
 * papers: 2,000 pages is more than any committee reads, and it bounds the work of copying
 * pages (their objects are parsed and copied) whatever a file's bytes say. A file that
 * would pass it is named, not merged, as for the cap on bytes.
 */
export const MAX_MERGED_PAGES = 2000;

/**
 * The extract's pages, then for each PDF in a file field (forms in order, entries in
 * order) a separator page and the PDF's pages. Files that are not PDFs are named in their
 * form's section only; a PDF that cannot be read, or that runs the PDF worker out of
 * memory or time, gets its separator page with a note. Uploaded PDFs are parsed only in
 * that worker (pdf-worker.ts), never on the server's own thread.
 */
export async function renderProposalExtract(
  input: ExtractInput,
  readBytes: ReadFileBytes,
  options: { attachmentsMaxBytes?: number; pdfWorker?: PdfWorkerLimits } = {},
): Promise<Buffer> {
  const cap = options.attachmentsMaxBytes ?? Number.POSITIVE_INFINITY;
  const worker = new PdfWorker(options.pdfWorker);
  try {
    const loaded = await loadFiles(input, readBytes, cap, worker);
    // A file that loaded alone may still fail in the merge (its pages' objects are only
    // copied then): it is named as left out and the extract is laid out again without it.
    for (;;) {
      const { documents, owners } = await layOut(input, loaded);
      const merged = await worker.run({
        kind: 'merge',
        documents,
        title: input.proposalName,
        subject: `Proposal extract: ${input.callName}`,
      });
      if ('pdf' in merged) return Buffer.from(merged.pdf);
      const at = 'failedAt' in merged ? merged.failedAt : 'at' in merged ? merged.at : null;
      const fileId = at === null ? undefined : owners[at];
      const file = fileId === undefined ? undefined : loaded.get(fileId);
      const problem =
        'problem' in merged ? merged.problem : 'failed' in merged ? merged.failed : '';
      // Only uploaded files can fail: the extract's own pages are made here.
      if (fileId === undefined || !file || file.kind !== 'pdf')
        throw new Error(`merging the proposal extract failed: ${problem}`);
      loaded.set(fileId, { kind: 'unreadable', name: file.name, problem });
    }
  } finally {
    await worker.close();
  }
}

/**
 * The extract's own pages and, per attached PDF, its separator and its bytes: the
 * documents to merge in order, and for each the file it is (null for the extract's own).
 */
async function layOut(input: ExtractInput, loaded: Map<number, StoredFile>) {
  const shelf = shelfOf(loaded);
  const attachments: Attachment[] = [];
  const content: Content[] = [header(input)];
  for (const form of input.forms) content.push(formSection(form, shelf, attachments));
  const documents: Uint8Array[] = [
    await render({
      pageSize: 'A4',
      pageMargins: PAGE_MARGINS,
      styles,
      defaultStyle,
      content,
      footer: (currentPage) => ({
        text: `Page ${currentPage}`,
        style: 'footer',
        alignment: 'right',
        margin: [0, 20, PAGE_MARGINS[2], 0],
      }),
    }),
  ];
  const owners: (number | undefined)[] = [undefined];
  for (const attachment of attachments) {
    // Each separator is a document of its own, so however long the names on it, the pages
    // that belong to it are known.
    documents.push(await render(separator(attachment, attachment.problem)));
    owners.push(undefined);
    if (attachment.pdf) {
      documents.push(attachment.pdf);
      owners.push(attachment.fileId);
    }
  }
  return { documents, owners };
}

// ---- Files ----------------------------------------------------------------------------

/** What a file field's answer turned out to be, decided once per file before laying out. */
type StoredFile =
  | { kind: 'unknown' }
  | { kind: 'missing'; name: string }
  | { kind: 'other'; name: string }
  | { kind: 'pdf'; name: string; bytes: Uint8Array; pages: number }
  | { kind: 'unreadable'; name: string; problem: string };

/** The file a file field's value names; null when the value is no file id at all. */
type Shelf = (value: unknown) => StoredFile | null;

/** A PDF to merge after the extract, headed by a separator page. */
interface Attachment {
  fileId: number;
  form: string;
  entry: number | null;
  field: string;
  fileName: string;
  pdf: Uint8Array | null;
  problem?: string;
}

function fileId(value: unknown): number | null {
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
async function loadFiles(
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

function shelfOf(loaded: Map<number, StoredFile>): Shelf {
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
function fileAnswer(file: StoredFile): Content {
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

/** The page before an attached PDF: whoever reads the merged file sees where it belongs. */
function separator(attachment: Attachment, problem: string | undefined) {
  const fact = (label: string, value: string): Content => ({
    text: [{ text: `${label}: `, bold: true }, breakable(value)],
    margin: [0, 0, 0, 4],
  });
  return {
    pageSize: 'A4' as const,
    pageMargins: PAGE_MARGINS,
    styles,
    defaultStyle,
    content: [
      { text: 'ATTACHED FILE', style: 'kicker', margin: [0, 160, 0, 0] },
      { text: breakable(attachment.field), style: 'separatorTitle' },
      fact('Form', attachment.form),
      ...(attachment.entry === null ? [] : [fact('Entry', String(attachment.entry))]),
      fact('File', attachment.fileName),
      problem
        ? {
            text: `This file could not be included in the extract: ${problem}.`,
            style: 'separatorNote',
            color: '#9a3412',
          }
        : { text: 'The file’s pages follow.', style: 'separatorNote' },
    ] satisfies Content[],
  };
}

// ---- Header ---------------------------------------------------------------------------

/** `YYYY-MM-DD HH:mm UTC`: the same for every reader, wherever the server runs. */
function formatExtractDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return 'Unknown';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function header(input: ExtractInput): Content {
  const orNone = (text: string, none = 'Not set'): Content =>
    text.trim() ? breakable(text) : muted(none);
  const person = (name: string, email: string): Content => ({
    text: [breakable(name), email ? muted(` (${breakable(email)})`) : ''],
  });
  const facts: [string, Content][] = [
    ['Call', orNone(input.callName)],
    ['Proposal', orNone(input.proposalName)],
    ['Type', orNone(input.proposalTypeName)],
    ['Author', person(input.author, input.authorEmail)],
    [
      'Collaborators',
      input.collaborators.length
        ? { stack: input.collaborators.map((c) => person(c.name, c.email)) }
        : muted('None'),
    ],
    ['State', orNone(input.state)],
    ['Created', formatExtractDate(input.created)],
    ['Last modified', formatExtractDate(input.lastModified)],
  ];
  return {
    stack: [
      { text: 'PROPOSAL EXTRACT', style: 'kicker' },
      { text: breakable(input.proposalName || 'Untitled proposal'), style: 'title' },
      { text: breakable(input.callName), style: 'subtitle' },
      {
        table: {
          widths: [90, '*'],
          body: facts.map(([label, value]): TableCell[] => [
            { text: label, style: 'factLabel' },
            value,
          ]),
        },
        layout: {
          hLineWidth: (i, node) => (i === 0 || i === node.table.body.length ? 0 : 0.5),
          hLineColor: () => colors.rule,
          vLineWidth: () => 0,
          paddingLeft: () => 0,
          paddingTop: () => 4,
          paddingBottom: () => 4,
        },
      },
    ],
  };
}

// ---- Forms ----------------------------------------------------------------------------

function entriesOf(form: ExtractForm): Json[] {
  const { answers } = form;
  if (Array.isArray(answers)) return (form.multi ? answers : answers.slice(0, 1)).filter(isObject);
  return isObject(answers) ? [answers] : [];
}

function formSection(form: ExtractForm, shelf: Shelf, attachments: Attachment[]): Content {
  const root = form.jsonSchema;
  const files = new Set(fileFields(form.jsonSchema, form.uiSchema));
  const body = (entry: Json, number: number | null): Content[] =>
    propertiesOf(root, form.uiSchema, entry, root).map((field) => {
      if (!files.has(field.name)) return fieldBlock(field, root, 0);
      const file = shelf(field.value);
      // Not a file id (empty, or what older forms stored): shown like any other answer.
      if (!file) return fieldBlock(field, root, 0);
      if (file.kind === 'pdf' || file.kind === 'unreadable') {
        attachments.push({
          fileId: fileId(field.value)!,
          form: form.name,
          entry: number,
          field: field.label,
          fileName: file.name,
          pdf: file.kind === 'pdf' ? file.bytes : null,
          problem: file.kind === 'unreadable' ? file.problem : undefined,
        });
      }
      return labelled(field.label, fileAnswer(file));
    });

  const heading: Content = { text: breakable(form.name), style: 'formHeading' };
  const entries = entriesOf(form);
  if (!form.multi) return { stack: [heading, ...body(entries[0] ?? {}, null)] };
  if (entries.length === 0) return { stack: [heading, muted('No entries')] };
  return {
    stack: [
      heading,
      ...entries.map((entry, i) => ({
        stack: [{ text: `Entry ${i + 1}`, style: 'entryHeading' }, ...body(entry, i + 1)],
      })),
    ],
  };
}

interface Field {
  name: string;
  label: string;
  schema: Json;
  ui: Json;
  value: unknown;
}

/** Past this depth an answer is shown as JSON: deeper nesting is not worth laying out. */
const MAX_DEPTH = 12;

/** An object's fields in the order the form shows them: the schema's, after `ui:order`. */
function propertiesOf(schema: Json, ui: Json, value: unknown, root: Json): Field[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const answers = isObject(value) ? value : {};
  // Without properties (a free-form object) the answers are all there is to go by.
  const names = Object.keys(properties).length
    ? ordered(Object.keys(properties), ui['ui:order'])
    : Object.keys(answers);
  return names.map((name) => {
    const propertySchema = resolve(properties[name], root);
    const propertyUi = isObject(ui[name]) ? ui[name] : {};
    return {
      name,
      label: titleOf(propertySchema, propertyUi) ?? name,
      schema: propertySchema,
      ui: propertyUi,
      value: answers[name],
    };
  });
}

/** rjsf's `ui:order`: the listed names first, the rest where `*` stands, else at the end. */
function ordered(names: string[], order: unknown): string[] {
  if (!Array.isArray(order)) return names;
  const listed = order.filter((name): name is string => names.includes(name as string));
  const rest = names.filter((name) => !listed.includes(name));
  const star = order.indexOf('*');
  if (star < 0) return [...listed, ...rest];
  const before = order.slice(0, star).filter((name) => listed.includes(name as string));
  return [...(before as string[]), ...rest, ...listed.slice(before.length)];
}

/** The title a person sees on the form: the UI schema's, as rjsf prefers it, else the schema's. */
function titleOf(schema: Json, ui: Json): string | undefined {
  const options = ui['ui:options'];
  const title = ui['ui:title'] ?? (isObject(options) ? options.title : undefined) ?? schema.title;
  return typeof title === 'string' && title.trim() ? title : undefined;
}

/** Follows a local `$ref` (`#/definitions/address`), as rjsf does; others stay as they are. */
function resolve(schema: unknown, root: Json, depth = 0): Json {
  if (!isObject(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 16) return schema;
  let target: unknown = root;
  for (const segment of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
    target = isObject(target) ? target[key] : undefined;
  }
  const { $ref: _ref, ...rest } = schema;
  return { ...resolve(target, root, depth + 1), ...rest };
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function fieldBlock(field: Field, root: Json, depth: number): Content {
  const { label, schema, ui, value } = field;
  if (depth >= MAX_DEPTH && !isEmpty(value)) {
    return labelled(label, breakable(JSON.stringify(value) ?? String(value)));
  }
  const isGroup =
    isObject(value) ||
    (value === undefined && (schema.type === 'object' || isObject(schema.properties)));
  if (isGroup) {
    return group(
      label,
      propertiesOf(schema, ui, value, root).map((child) => fieldBlock(child, root, depth + 1)),
    );
  }
  if (Array.isArray(value) && value.some(isObject)) {
    const itemUi = isObject(ui.items) ? ui.items : {};
    return group(
      label,
      value.map((item, i) => {
        const itemSchema = itemSchemaOf(schema, i, root);
        return group(
          `Item ${i + 1}`,
          isObject(item)
            ? propertiesOf(itemSchema, itemUi, item, root).map((child) =>
                fieldBlock(child, root, depth + 2),
              )
            : [answer(item, itemSchema, itemUi, root)],
        );
      }),
    );
  }
  return labelled(label, answer(value, schema, ui, root));
}

function itemSchemaOf(schema: Json, index: number, root: Json): Json {
  const items = schema.items;
  if (Array.isArray(items)) return resolve(items[index] ?? schema.additionalItems, root);
  return resolve(items, root);
}

/** A plain answer: text, a number, a choice, a list of them, or rich text. */
function answer(value: unknown, schema: Json, ui: Json, root: Json): Content {
  if (isEmpty(value)) return notAnswered();
  const choice = choiceTitle(value, schema, ui);
  if (choice !== undefined) return breakable(choice);
  if (Array.isArray(value)) {
    const itemUi = isObject(ui.items) ? ui.items : {};
    return {
      ul: value.map((item, i) => answer(item, itemSchemaOf(schema, i, root), itemUi, root)),
      margin: [0, 1, 0, 0],
    };
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return breakable(JSON.stringify(value) ?? String(value));
  if (looksLikeHtml(value)) return richText(value) ?? notAnswered();
  if (value.startsWith('data:')) return embeddedFile(value);
  return breakable(value);
}

/** A choice's title, from `oneOf`/`anyOf` entries with `const`, or `enumNames`. */
function choiceTitle(value: unknown, schema: Json, ui: Json): string | undefined {
  for (const option of [schema.oneOf, schema.anyOf].flatMap((o) => (Array.isArray(o) ? o : []))) {
    if (isObject(option) && option.const === value && typeof option.title === 'string') {
      return option.title;
    }
  }
  if (!Array.isArray(schema.enum)) return undefined;
  const names = schema.enumNames ?? ui['ui:enumNames'];
  const name = Array.isArray(names) ? names[schema.enum.indexOf(value)] : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** rjsf's own file widget stores `data:<type>;name=<file>;base64,…`: show its name only. */
function embeddedFile(dataUrl: string): Content {
  const name = /;name=([^;,]*)/.exec(dataUrl)?.[1];
  let decoded = 'a file';
  if (name) {
    try {
      decoded = decodeURIComponent(name);
    } catch {
      decoded = name;
    }
  }
  return { text: [breakable(decoded), muted(' (embedded file, not included)')] };
}

function labelled(label: string, value: Content): Content {
  const short = typeof value === 'string' && value.length < 200 && !value.includes('\n');
  // Short answers stay on their label's page; long ones may need to break across pages.
  return {
    stack: [{ text: breakable(label), style: 'label' }, value],
    margin: [0, 0, 0, 8],
    unbreakable: short,
  };
}

function group(label: string, children: Content[]): Content {
  return {
    stack: [
      { text: breakable(label), style: 'groupHeading' },
      { stack: children.length ? children : [muted('No fields')], margin: [10, 0, 0, 0] },
    ],
    margin: [0, 0, 0, 4],
  };
}

function muted(text: string): ContentText {
  return { text, style: 'empty' };
}

function notAnswered(): Content {
  return muted('Not answered');
}

/**
 * pdfmake breaks a word too long for its line letter by letter, which takes time that
 * grows faster than the word: a pasted 50 KB token would stall the download. A zero-width
 * space every so often lets it break there instead; Roboto draws it as nothing.
 */
function breakable(text: string): string {
  return text.replace(/[^\s\u200b]{64}(?=[^\s\u200b])/gu, '$&\u200b');
}

// ---- Rich text ------------------------------------------------------------------------

/** Rich-text answers are HTML that starts with a tag (`<p>`, `<ul>`, `<h2>`…). */
function looksLikeHtml(text: string): boolean {
  return /^\s*<([a-z][a-z0-9]*)(\s[^<>]*)?\/?>/i.test(text);
}

interface Run {
  text: string;
  bold?: boolean;
  italics?: boolean;
  decoration?: 'underline' | 'lineThrough';
}
interface Block {
  runs: Run[];
  indent: number;
  marker?: string;
}

const BLOCK_TAGS = new Set([
  'address',
  'article',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'p',
  'pre',
  'section',
  'table',
  'tr',
]);
/** Their text is not the answer's: code, styles, or the document's title. */
const SKIPPED_TAGS = new Set(['head', 'noscript', 'script', 'style', 'template', 'title']);
const BOLD_TAGS = new Set(['b', 'strong', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const ITALIC_TAGS = new Set(['cite', 'em', 'i', 'q']);
const STRIKE_TAGS = new Set(['del', 's', 'strike']);

/**
 * Rich text as pdfmake paragraphs: the HTML's paragraphs, line breaks and lists with
 * their bullets or numbers, and bold, italics, underline and strike-through. Everything
 * else is reduced to its text, so no tag ever shows. Null when there is no text at all.
 */
function richText(html: string): Content | null {
  const blocks: Block[] = [];
  const lists: { ordered: boolean; next: number }[] = [];
  const open = { bold: 0, italics: 0, underline: 0, strike: 0, pre: 0, skip: 0 };
  let current: Block | null = null;

  const flush = () => {
    if (current) {
      trimEnd(current.runs);
      if (current.runs.some((run) => run.text.trim())) blocks.push(current);
    }
    current = null;
  };
  const add = (raw: string, verbatim = false) => {
    if (open.skip) return;
    const block = (current ??= { runs: [], indent: lists.length });
    let text = verbatim || open.pre ? raw : raw.replace(/[ \t\n\r\f]+/g, ' ');
    const previous = block.runs.at(-1)?.text ?? '\n';
    // HTML collapses spaces between elements too, and drops them at a line's start.
    if (!verbatim && !open.pre && /[ \n]$/.test(previous)) text = text.replace(/^ /, '');
    if (!text) return;
    const run: Run = { text };
    if (open.bold) run.bold = true;
    if (open.italics) run.italics = true;
    if (open.strike) run.decoration = 'lineThrough';
    else if (open.underline) run.decoration = 'underline';
    block.runs.push(run);
  };
  const count = (name: string, by: 1 | -1) => {
    if (SKIPPED_TAGS.has(name)) open.skip += by;
    if (BOLD_TAGS.has(name)) open.bold += by;
    if (ITALIC_TAGS.has(name)) open.italics += by;
    if (STRIKE_TAGS.has(name)) open.strike += by;
    if (name === 'u' || name === 'ins') open.underline += by;
    if (name === 'pre') open.pre += by;
    for (const key of Object.keys(open) as (keyof typeof open)[]) {
      open[key] = Math.max(0, open[key]);
    }
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'ul' || name === 'ol') {
          flush();
          const start = Number.parseInt(attributes.start ?? '', 10);
          lists.push({ ordered: name === 'ol', next: Number.isFinite(start) ? start : 1 });
        } else if (name === 'li') {
          flush();
          const list = lists.at(-1);
          const marker = list?.ordered ? `${list.next++}.` : '•';
          current = { runs: [], indent: Math.max(0, lists.length - 1), marker };
        } else if (BLOCK_TAGS.has(name)) {
          flush();
        } else if (name === 'br') {
          add('\n', true);
        } else if (name === 'img') {
          add(`[${attributes.alt?.trim() || 'image'}]`);
        } else if (name === 'td' || name === 'th') {
          if (current?.runs.length) add(' · ', true);
        }
        count(name, 1);
      },
      ontext(text) {
        add(text);
      },
      onclosetag(name) {
        count(name, -1);
        if (name === 'ul' || name === 'ol') {
          flush();
          lists.pop();
        } else if (name === 'li' || BLOCK_TAGS.has(name)) {
          flush();
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();

  if (blocks.length === 0) return null;
  return {
    stack: blocks.map((block): Content => {
      const text = block.runs.map((run) => ({ ...run, text: breakable(run.text) }));
      const margin: [number, number, number, number] = [block.indent * 14, 0, 0, 4];
      if (!block.marker) return { text, margin };
      return {
        columns: [
          { width: block.marker.length > 1 ? 18 : 10, text: block.marker },
          { width: '*', text },
        ],
        columnGap: 4,
        margin: [margin[0], 0, 0, 2],
      };
    }),
  };
}

function trimEnd(runs: Run[]): void {
  while (runs.length) {
    const last = runs.at(-1)!;
    last.text = last.text.replace(/[ \n]+$/, '');
    if (last.text) return;
    runs.pop();
  }
}
