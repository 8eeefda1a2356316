/**
 * A small, valid one-page PDF with a few lines of text, for the demo's uploads: written by
 * hand (PDF 1.4, one Helvetica text stream, an exact cross-reference table) so the demo
 * needs no PDF library and its files open in any reader and pass the upload's PDF check.
 */

/** Text in a PDF string literal: its three special characters escaped, ASCII only. */
const pdfString = (text: string) =>
  `(${text
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[\\()]/g, (ch) => `\\${ch}`)})`;

export function demoPdf(title: string, lines: readonly string[]): Buffer {
  const text = [
    'BT',
    '/F1 18 Tf 72 760 Td',
    `${pdfString(title)} Tj`,
    '/F1 11 Tf 0 -28 Td 15 TL',
    ...lines.map((line) => `${pdfString(line)} '`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Title ${pdfString(title)} /Producer (Merit demo) >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
