import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import {
  renderProposalExtract,
  type ExtractForm,
  type ExtractInput,
  type ReadFileBytes,
} from './proposal-extract.js';

/** A PDF like one a proposer uploads: one page per sentence. */
async function makePdf(sentences: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const sentence of sentences) {
    doc.addPage([400, 300]).drawText(sentence, { x: 40, y: 150, size: 12, font });
  }
  return Buffer.from(await doc.save());
}

async function pdfText(pdf: Buffer): Promise<{ text: string; pages: string[] }> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const result = await parser.getText();
    // Layout decides where lines break; the assertions are about words.
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    return { text: flat(result.text), pages: result.pages.map((page) => flat(page.text)) };
  } finally {
    await parser.destroy();
  }
}

const projectForm: ExtractForm = {
  id: 1,
  name: 'Project description',
  multi: false,
  jsonSchema: {
    type: 'object',
    properties: {
      title: { type: 'string', title: 'Project title' },
      summary: { type: 'string', title: 'Summary' },
      budget: { type: 'number', title: 'Requested budget' },
      ethics: { type: 'boolean', title: 'Ethics approval obtained' },
      programme: {
        type: 'string',
        title: 'Programme',
        enum: ['fund-a', 'fund-b'],
        enumNames: ['Frontier research', 'Applied research'],
      },
      investigator: {
        type: 'object',
        title: 'Principal investigator',
        properties: {
          fullName: { type: 'string', title: 'Full name' },
          institution: { type: 'string', title: 'Institution' },
        },
      },
      comments: { type: 'string', title: 'Further comments' },
      untitled: { type: 'string' },
      workplan: { type: 'string', format: 'data-url', title: 'Work plan' },
    },
  },
  uiSchema: { summary: { 'ui:widget': 'textarea' } },
  answers: {
    title: 'Quantum sourdough 🍞 fermentation',
    summary:
      '<p>Our <strong>bold</strong> plan &amp; more.<br>Second line.</p>' +
      '<ul><li>First aim</li><li>Second aim</li></ul><ol><li>Step one</li></ol>',
    budget: 125000.5,
    ethics: true,
    programme: 'fund-b',
    investigator: { fullName: 'Ada Lovelace', institution: 'Analytical Engine Society' },
    comments: '',
    untitled: 'Value without a title',
    workplan: '12',
  },
};

const teamForm: ExtractForm = {
  id: 2,
  name: 'Team members',
  multi: true,
  jsonSchema: {
    type: 'object',
    properties: {
      member: { type: 'string', title: 'Member name' },
      role: { type: 'string', title: 'Role in project' },
      cv: { type: 'string', title: 'Curriculum vitae' },
    },
  },
  uiSchema: { cv: { 'ui:widget': 'file' } },
  answers: [
    { member: 'Grace Hopper', role: 'Compiler lead' },
    { member: 'Alan Turing', role: 'Theory', cv: '13' },
  ],
};

function inputWith(overrides: Partial<ExtractInput> = {}): ExtractInput {
  return {
    callName: 'Open Call 2025',
    proposalName: 'Bread and Qubits',
    proposalTypeName: 'Research grant',
    author: 'Ada Lovelace',
    authorEmail: 'ada@example.org',
    collaborators: [{ name: 'Charles Babbage', email: 'charles@example.org' }],
    state: 'Submitted',
    created: new Date('2025-03-04T05:06:07Z'),
    lastModified: new Date('2025-04-05T17:08:59Z'),
    forms: [projectForm, teamForm],
    files: [
      { id: 12, name: 'workplan.pdf', contentType: 'application/pdf', size: 1000 },
      { id: 13, name: 'turing-cv.docx', contentType: 'application/msword', size: 1000 },
    ],
    ...overrides,
  };
}

function reader(files: Record<number, Buffer>): ReadFileBytes & { calls: number[] } {
  const calls: number[] = [];
  return Object.assign(
    async (id: number) => {
      calls.push(id);
      return files[id] ?? null;
    },
    { calls },
  );
}

describe('renderProposalExtract', () => {
  it('shows the proposal, its answers, and the uploaded PDFs after a separator page', async () => {
    const attached = await makePdf([
      'The zebra sings at dawn over Lisbon.',
      'Second page of the work plan.',
    ]);
    const read = reader({ 12: attached, 13: Buffer.from('PK not a pdf') });

    const pdf = await renderProposalExtract(inputWith(), read);
    const { text, pages } = await pdfText(pdf);

    // The header.
    for (const fact of [
      'PROPOSAL EXTRACT',
      'Open Call 2025',
      'Bread and Qubits',
      'Research grant',
      'Ada Lovelace (ada@example.org)',
      'Charles Babbage (charles@example.org)',
      'Submitted',
      'Created 4 Mar 2025, 05:06 UTC',
      'Last modified 5 Apr 2025, 17:08 UTC',
    ]) {
      expect(text).toContain(fact);
    }

    // The single form: labels from the titles, then the answers.
    for (const [label, value] of [
      ['Project title', 'Quantum sourdough'],
      ['Requested budget', '125000.5'],
      ['Ethics approval obtained', 'Yes'],
      ['Programme', 'Applied research'],
      ['Full name', 'Ada Lovelace'],
      ['Institution', 'Analytical Engine Society'],
      ['Further comments', 'Not answered'],
      ['untitled', 'Value without a title'],
      ['Work plan', 'workplan.pdf (included after the answers)'],
    ]) {
      expect(text).toContain(`${label} ${value}`);
    }
    expect(text).toContain('Project description');
    expect(text).toContain('Principal investigator');

    // Rich text: its words and structure, never its tags.
    expect(text).toContain('Our bold plan & more.');
    expect(text).toContain('Second line.');
    expect(text).toMatch(/• First aim/);
    expect(text).toMatch(/• Second aim/);
    expect(text).toMatch(/1\. Step one/);
    expect(text).not.toMatch(/<\/?(p|strong|br|ul|ol|li)>|&amp;/);

    // The multi-entry form, entry by entry; a non-PDF file is named, not merged.
    expect(text).toContain('Team members');
    expect(text).toMatch(/Entry 1 Member name Grace Hopper Role in project Compiler lead/);
    expect(text).toContain('Curriculum vitae Not answered');
    expect(text).toMatch(/Entry 2 Member name Alan Turing Role in project Theory/);
    expect(text).toContain('turing-cv.docx (not a PDF, so not included in this extract)');

    // Extract pages, then the separator, then the attached PDF's two pages.
    const separatorAt = pages.findIndex((page) => page.includes('ATTACHED FILE'));
    expect(separatorAt).toBeGreaterThan(0);
    expect(pages.filter((page) => page.includes('ATTACHED FILE'))).toHaveLength(1);
    expect(pages[separatorAt]).toContain('Work plan');
    expect(pages[separatorAt]).toContain('Form: Project description');
    expect(pages[separatorAt]).toContain('File: workplan.pdf');
    expect(pages[separatorAt + 1]).toContain('The zebra sings at dawn over Lisbon.');
    expect(pages[separatorAt + 2]).toContain('Second page of the work plan.');
    expect(pages.slice(0, separatorAt).join(' ')).not.toContain('zebra');

    const merged = await PDFDocument.load(pdf);
    expect(merged.getPageCount()).toBe(separatorAt + 1 + 2);
    expect(pages).toHaveLength(separatorAt + 1 + 2);
    expect(merged.getTitle()).toBe('Bread and Qubits');
  });

  it('names the entry of a multi-entry form on the separator page', async () => {
    const read = reader({ 13: await makePdf(['Turing curriculum vitae.']) });
    const input = inputWith({
      forms: [teamForm],
      files: [{ id: 13, name: 'turing-cv.pdf', contentType: 'application/pdf', size: 1000 }],
    });

    const { pages } = await pdfText(await renderProposalExtract(input, read));

    const separator = pages.at(-2)!;
    expect(separator).toContain('ATTACHED FILE');
    expect(separator).toContain('Curriculum vitae');
    expect(separator).toContain('Form: Team members');
    expect(separator).toContain('Entry: 2');
    expect(separator).toContain('File: turing-cv.pdf');
    expect(pages.at(-1)).toContain('Turing curriculum vitae.');
  });

  it('notes a PDF it cannot read on its separator page instead of failing', async () => {
    const read = reader({ 12: Buffer.from('%PDF-garbage') });
    const input = inputWith({ forms: [projectForm] });

    const pdf = await renderProposalExtract(input, read);
    const { text, pages } = await pdfText(pdf);

    expect(text).toContain('workplan.pdf (could not be included');
    const separator = pages.at(-1)!;
    expect(separator).toContain('ATTACHED FILE');
    expect(separator).toContain('File: workplan.pdf');
    expect(separator).toContain('This file could not be included in the extract');
    expect(pages.filter((page) => page.includes('ATTACHED FILE'))).toHaveLength(1);
  });

  it('reads only the proposal’s own files, and says when one is missing', async () => {
    const read = reader({});
    const input = inputWith({
      forms: [
        { ...projectForm, answers: { workplan: '99' } },
        { ...teamForm, answers: [{ member: 'Grace Hopper', cv: '13' }] },
      ],
      files: [{ id: 13, name: 'lost.pdf', contentType: 'application/pdf', size: 1000 }],
    });

    const { text, pages } = await pdfText(await renderProposalExtract(input, read));

    expect(read.calls).toEqual([13]);
    expect(text).toContain('Work plan A file that is not part of this proposal');
    expect(text).toContain('lost.pdf (the file is missing)');
    expect(pages.some((page) => page.includes('ATTACHED FILE'))).toBe(false);
  });

  it('shows unanswered forms, empty multi-entry forms and no collaborators as such', async () => {
    const input = inputWith({
      collaborators: [],
      forms: [
        { ...projectForm, answers: null },
        { ...teamForm, answers: [] },
      ],
    });

    const { text } = await pdfText(await renderProposalExtract(input, reader({})));

    expect(text).toContain('Collaborators None');
    expect(text).toContain('Project title Not answered');
    expect(text).toContain('Full name Not answered');
    expect(text).toContain('Work plan Not answered');
    expect(text).toMatch(/Team members No entries/);
  });

  it('lays out a megabyte of answer in paragraphs within the time one extract may take', async () => {
    const paragraph = 'Several words of a long answer, written at length for the committee. ';
    const long = Array.from({ length: 1450 }, (_, i) => `${i + 1}. ${paragraph.repeat(10)}`).join(
      '\n\n',
    );
    expect(long.length).toBeGreaterThan(1_000_000);
    const input = inputWith({
      forms: [{ ...projectForm, answers: { title: 'Long', comments: long } }],
      files: [],
    });

    const pdf = await renderProposalExtract(input, reader({}));

    const pages = (await PDFDocument.load(pdf)).getPageCount();
    expect(pages).toBeGreaterThan(200);
    // Its first and last paragraphs, each on a line of its own, the blank line kept between.
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    try {
      const { text } = await parser.getText({ partial: [1, pages] });
      expect(text).toMatch(/Further comments\s+1\. Several words/);
      expect(text).toMatch(/the committee\.\s+1450\. Several words/);
    } finally {
      await parser.destroy();
    }
  }, 120_000);

  it('survives unusual text: emoji, lone surrogates, right-to-left, very long words', async () => {
    const odd = 'שלום 😀 \ud83d lone \u0007 bell 中文 ' + 'x'.repeat(20_000);
    const input = inputWith({
      proposalName: odd,
      author: odd,
      forms: [
        {
          ...projectForm,
          name: odd,
          answers: { title: odd, summary: `<p>${odd}</p><script>alert(1)</script>` },
        },
      ],
    });

    const started = Date.now();
    const pdf = await renderProposalExtract(input, reader({}));

    expect(Date.now() - started).toBeLessThan(15_000);
    const { text } = await pdfText(pdf);
    expect(text).not.toContain('alert(1)');
  });
});
