import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { markdownToPdf } from './markdown-to-pdf.js';
import { readManual } from './read-manual.js';
import { renderPdf } from './render-pdf.js';

const manualPath = fileURLToPath(new URL('../manual.md', import.meta.url));
const date = new Date('2025-03-14T09:00:00Z');

/** Page objects, not the `/Type /Pages` tree node. */
function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page(?![a-zA-Z])/g)?.length ?? 0;
}

describe('the real manual', () => {
  let markdown: string;
  let images: Record<string, string>;
  let pdf: Buffer;

  beforeAll(async () => {
    const manual = await readManual(manualPath);
    ({ markdown, images } = manual);
    pdf = await renderPdf(markdownToPdf(markdown, { date, images }));
  }, 30_000);

  it('is a PDF titled "Merit user manual"', () => {
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('(Merit user manual)');
  });

  it('has a title page, a contents page and a page per chapter at least', () => {
    const chapters = markdown.match(/^## /gm)?.length ?? 0;
    expect(chapters).toBeGreaterThanOrEqual(4);
    expect(pageCount(pdf)).toBeGreaterThanOrEqual(2 + chapters);
  });

  it('bookmarks every chapter', () => {
    const text = pdf.toString('latin1');
    for (const [, title] of markdown.matchAll(/^## (.+)$/gm)) {
      expect(text).toContain(`/Title (${title})`);
    }
  });

  it('quotes the on-screen messages word for word', () => {
    expect(markdown).toContain('`You do not have permission to access this page.`');
    expect(markdown).toContain('`The page you are looking for can not be found.`');
  });

  it('gives the same bytes when built again from the same text and date', async () => {
    const again = await renderPdf(markdownToPdf(markdown, { date, images }));
    expect(again.equals(pdf)).toBe(true);
  }, 30_000);
});

describe('renderPdf', () => {
  const base = markdownToPdf('# T\n\n## C\n\nText.\n', { date });

  it('embeds the monospace font for code', async () => {
    const plain = await renderPdf(base);
    const withCode = await renderPdf(markdownToPdf('# T\n\n## C\n\n`code`\n', { date }));
    expect(plain.toString('latin1')).not.toContain('RobotoMono');
    expect(withCode.toString('latin1')).toContain('RobotoMono');
  });

  it('refuses to fetch anything from the network', async () => {
    await expect(
      renderPdf({ ...base, images: { remote: 'https://example.org/logo.png' } }),
    ).rejects.toThrow(/denied/);
  });

  it('refuses to read local files other than its fonts', async () => {
    const local = { ...base, content: [{ image: '/etc/passwd' }] };
    await expect(renderPdf(local)).rejects.toThrow(/denied/);
  });
});

describe('a manual with a picture', () => {
  it('embeds the picture in the PDF', async () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const markdown = '# Manual\n\n## Chapter\n\n![A screenshot](images/shot.png)\n';
    const pdf = await renderPdf(
      markdownToPdf(markdown, { date, images: { 'images/shot.png': png } }),
    );
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
  });
});
