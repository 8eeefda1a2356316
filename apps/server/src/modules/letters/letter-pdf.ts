import { pdfRenderer, robotoFonts } from '@merit/pdf';
import type { Content } from 'pdfmake/interfaces';
import { breakable, richText } from '../files/files-access.js';

/*
 * A decision letter as a PDF (issue 29): the committee's name at the top, the subject, then
 * the letter's HTML laid out as the proposal extract lays out rich text, in its fonts.
 * Loaded by the letter job on its first letter, not at start-up, as the extract is.
 */

const render = pdfRenderer(robotoFonts);

const colors = { text: '#1f2328', muted: '#59636e', accent: '#1d4f91' };

export interface LetterPdfInput {
  committeeName: string;
  subject: string;
  /** The letter's HTML as renderLetter wrote it: every value in it escaped. */
  html: string;
  /** When it was written, under the committee's name. */
  date: Date;
}

export function letterPdf(input: LetterPdfInput): Promise<Buffer> {
  const content: Content[] = [
    { text: breakable(input.committeeName), style: 'committee' },
    { text: input.date.toISOString().slice(0, 10), style: 'date' },
    { text: breakable(input.subject), style: 'subject' },
    richText(input.html) ?? '',
  ];
  return render({
    pageSize: 'A4',
    pageMargins: [56, 56, 56, 56],
    info: { title: input.subject, author: input.committeeName },
    styles: {
      committee: { fontSize: 18, bold: true, color: colors.accent, margin: [0, 0, 0, 2] },
      date: { fontSize: 9.5, color: colors.muted, margin: [0, 0, 0, 18] },
      subject: { fontSize: 12, bold: true, margin: [0, 0, 0, 12] },
    },
    defaultStyle: { font: 'Roboto', fontSize: 10.5, lineHeight: 1.25, color: colors.text },
    content,
  });
}
