import { fileFields, utcTime } from '@merit/domain';
import { pdfRenderer, robotoFonts } from '@merit/pdf';
import type { Content, StyleDictionary, TableCell } from 'pdfmake/interfaces';
import {
  fileAnswer,
  fileId,
  shelfOf,
  type Attachment,
  type Shelf,
  type StoredFile,
} from './extract-attachments.js';
import type { ExtractForm, ExtractInput } from './extract-input.js';
import { entriesOf, fieldBlock, labelled, propertiesOf, type Json } from './extract-schema-walk.js';
import { breakable, muted } from './extract-text.js';

/**
 * The proposal extract's pages as pdfmake lays them out: their styles, the header with
 * the proposal's facts, a section per form, and a separator page before each attached
 * PDF; rendered to the PDFs that are merged in order.
 */

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
 * The extract's own pages and, per attached PDF, its separator and its bytes: the
 * documents to merge in order, and for each the file it is (null for the extract's own).
 */
export async function layOut(input: ExtractInput, loaded: Map<number, StoredFile>) {
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

/** Merit's one format in UTC ("4 Mar 2025, 05:06 UTC"): the same for every reader. */
function formatExtractDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return 'Unknown';
  return utcTime(date);
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
