/**
 * Small, valid PDFs made in the test, so a journey needs no file on disk and no PDF
 * library: a page that says one line, and as much unused stream data as asked, to make
 * an upload take several chunks.
 */

/** Text as a PDF string literal: the three characters that would end or escape it. */
const pdfString = (text: string) => `(${text.replace(/[\\()]/g, (ch) => `\\${ch}`)})`;

/**
 * A one-page PDF (ISO 32000) that shows `text`, at least `minBytes` long: the padding is a
 * stream no page uses, which readers and pdf-lib skip. The cross-reference table gives each
 * object's byte offset, as readers that do not rebuild it need.
 */
export function makePdf(text: string, { minBytes = 0 } = {}): Buffer {
  const content = `BT /F1 18 Tf 72 720 Td ${pdfString(text)} Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' +
      '/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  if (minBytes > 0) {
    objects.push(`<< /Length ${minBytes} >>\nstream\n${'0'.repeat(minBytes)}\nendstream`);
  }

  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  // Each entry is exactly 20 bytes: ten digits, space, five digits, space, type, space, LF.
  pdf +=
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
