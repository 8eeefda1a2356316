import type { Content, ContentTable, ContentText, DynamicContent } from 'pdfmake/interfaces';
import { describe, expect, it } from 'vitest';
import {
  imagePaths,
  markdownToPdf,
  slugify,
  type Block,
  type HeadingNode,
  type PageBreakNode,
} from './markdown-to-pdf.js';

const date = new Date('2025-03-14T09:00:00Z');

/** The content after the title page and the contents: what the markdown's body became. */
function body(markdown: string): Block[] {
  const content = markdownToPdf(markdown, { date }).content as Block[];
  const toc = content.findIndex((node) => 'toc' in node);
  return content.slice(toc + 1);
}

function only(markdown: string): Block {
  const nodes = body(markdown);
  expect(nodes).toHaveLength(1);
  return nodes[0]!;
}

/** The inline leaves of a text node, flattened. */
function leaves(node: Content): ContentText[] {
  const text = (node as ContentText).text;
  return Array.isArray(text) ? (text as ContentText[]) : [node as ContentText];
}

function joined(node: Content): string {
  return leaves(node)
    .map((leaf) => leaf.text)
    .join('');
}

describe('title page and document', () => {
  const markdown = '# Merit user manual\n\nCalls for proposals.\n\n## First chapter\n\nText.\n';
  const doc = markdownToPdf(markdown, { date });
  const content = doc.content as Block[];

  it('takes the leading level-1 heading as the title, not as a chapter', () => {
    expect(doc.info?.title).toBe('Merit user manual');
    expect(content[0]).toMatchObject({ text: 'Merit user manual', style: 'title' });
    const headings = content.filter((node) => 'headlineLevel' in node);
    expect(headings.map((h) => joined(h))).toEqual(['First chapter']);
  });

  it('puts the text before the first chapter on the title page, with the date', () => {
    expect(content[1]).toMatchObject({ style: 'subtitle' });
    expect(JSON.stringify(content[1])).toContain('Calls for proposals.');
    expect(content[2]).toEqual({ text: '14 March 2025', style: 'titleDate' });
  });

  it('fixes the creation date so that a rebuild gives the same bytes', () => {
    expect(doc.info?.creationDate).toEqual(date);
    expect(doc.info?.modDate).toEqual(date);
  });

  it('has a contents page, and the first chapter starts the page after it', () => {
    const toc = content.find((node) => 'toc' in node);
    expect(toc).toMatchObject({ pageBreak: 'before', toc: { title: { text: 'Contents' } } });
    expect(body(markdown)[0]).toMatchObject({ pageBreak: 'before' });
  });

  it('numbers pages in the footer, except on the title page', () => {
    const footer = doc.footer as DynamicContent;
    const size = { width: 595.28, height: 841.89, orientation: 'portrait' as const };
    expect(footer(1, 5, size)).toBeNull();
    expect(JSON.stringify(footer(2, 5, size))).toContain('Page 2 of 5');
    expect(JSON.stringify(footer(2, 5, size))).toContain('Merit user manual');
  });

  it('keeps a heading off the foot of a page', () => {
    const decide = doc.pageBreakBefore!;
    const heading: PageBreakNode = { headlineLevel: 3, pageNumbers: [4] };
    const footerOnly = { getFollowingNodesOnPage: () => [{ style: 'footer', pageNumbers: [4] }] };
    const more = { getFollowingNodesOnPage: () => [{ style: 'paragraph', pageNumbers: [4] }] };
    expect(decide(heading, footerOnly)).toBe(true);
    expect(decide(heading, more)).toBe(false);
    expect(decide({ pageNumbers: [4] }, footerOnly)).toBe(false);
  });
});

describe('headings', () => {
  const nodes = body(
    '# Title\n\n## Getting started\n\n### What Merit is\n\n#### Detail\n\n# Part two\n\n## Later chapter\n\n## Getting started\n',
  ) as HeadingNode[];
  const [chapter, section, detail, part, partChapter, duplicate] = nodes;

  it('lists chapters in the contents and bookmarks, each on a new page', () => {
    expect(chapter).toMatchObject({
      style: 'h2',
      headlineLevel: 2,
      tocItem: true,
      id: 'getting-started',
      outline: true,
      outlineText: 'Getting started',
      pageBreak: 'before',
    });
  });

  it('keeps sections out of the contents but bookmarks them under their chapter', () => {
    expect(section).toMatchObject({ style: 'h3', outlineParentId: 'getting-started' });
    expect(section?.tocItem).toBeUndefined();
    expect(section?.pageBreak).toBeUndefined();
    expect(detail).toMatchObject({ style: 'h4', outlineParentId: 'what-merit-is' });
  });

  it('lists a later level-1 heading as a part, with its chapters indented under it', () => {
    expect(part).toMatchObject({ style: 'h1', tocItem: true, tocStyle: 'tocPart' });
    expect(part?.outlineParentId).toBeUndefined();
    expect(partChapter).toMatchObject({ tocItem: true, outlineParentId: 'part-two' });
    expect(partChapter?.tocMargin).toEqual([14, 4, 0, 0]);
    // The chapter right after its part heading shares the part's page.
    expect(partChapter?.pageBreak).toBeUndefined();
  });

  it('gives two headings with the same text distinct anchors', () => {
    expect(duplicate?.id).toBe('getting-started-1');
  });

  it('makes anchors the way GitHub does', () => {
    expect(slugify('For administrators: the first administrator account')).toBe(
      'for-administrators-the-first-administrator-account',
    );
  });
});

describe('inline styles', () => {
  it('maps bold, italics, code and strike-through to pdfmake text properties', () => {
    const node = only('Plain **bold** *italic* ***both*** `npm start` ~~old~~.');
    expect(node).toMatchObject({ style: 'paragraph' });
    expect(leaves(node)).toEqual([
      { text: 'Plain ' },
      { text: 'bold', bold: true },
      { text: ' ' },
      { text: 'italic', italics: true },
      { text: ' ' },
      { text: 'both', bold: true, italics: true },
      { text: ' ' },
      { text: 'npm start', style: 'inlineCode' },
      { text: ' ' },
      { text: 'old', decoration: 'lineThrough' },
      { text: '.' },
    ]);
  });

  it('links outside the manual by URL and inside it by heading anchor', () => {
    const [, node] = body(
      '## Logging out\n\nSee [the site](https://example.org/) or [Logging out](#logging-out).',
    );
    expect(leaves(node!)).toContainEqual({
      text: 'the site',
      link: 'https://example.org/',
      style: 'link',
    });
    expect(leaves(node!)).toContainEqual({
      text: 'Logging out',
      linkToDestination: 'logging-out',
      style: 'link',
    });
  });

  it('refuses a link to an anchor that no heading has', () => {
    expect(() =>
      markdownToPdf('# T\n\n## Logging in\n\nSee [out](#logging-out).\n', { date }),
    ).toThrow(/#logging-out/);
  });

  it('keeps styles of text nested inside a link', () => {
    const node = only('[**Help**](https://example.org/help)');
    expect(leaves(node)).toEqual([
      { text: 'Help', bold: true, link: 'https://example.org/help', style: 'link' },
    ]);
  });

  it('decodes entities and escapes, and joins soft line breaks with a space', () => {
    expect(joined(only('Fish &amp; chips \\*not bold\\*\nnext line'))).toBe(
      'Fish & chips *not bold* next line',
    );
  });

  it('turns a hard line break into a new line', () => {
    expect(joined(only('one  \ntwo'))).toBe('one\ntwo');
  });
});

describe('lists', () => {
  it('nests an unordered list inside an item, with its own marker', () => {
    const list = only('- Authors\n  - write\n  - submit\n- Chairs\n') as {
      ul: { stack: Block[] }[];
    };
    expect(list).toMatchObject({ style: 'list' });
    expect(list.ul).toHaveLength(2);
    const [text, nested] = list.ul[0]!.stack;
    expect(joined(text!)).toBe('Authors');
    expect(nested).toMatchObject({ type: 'circle', style: 'nestedList' });
    expect((nested as { ul: unknown[] }).ul).toHaveLength(2);
    expect(list.ul[1]!.stack).toHaveLength(1);
  });

  it('numbers ordered lists from their first number and nests them with letters', () => {
    const list = only('3. three\n4. four\n   1. sub\n') as {
      ol: { stack: Block[] }[];
      start?: number;
    };
    expect(list.start).toBe(3);
    expect(list.ol).toHaveLength(2);
    expect(list.ol[1]!.stack[1]).toMatchObject({ type: 'lower-alpha' });
  });

  it('spaces the items of a loose list further apart than a tight one', () => {
    const tight = only('- a\n- b\n') as { ul: Block[] };
    const loose = only('- a\n\n- b\n') as { ul: Block[] };
    expect(tight.ul[0]).toMatchObject({ style: 'listItem' });
    expect(loose.ul[0]).toMatchObject({ style: 'looseListItem' });
  });
});

describe('tables', () => {
  const table = only(
    '| Item | Address | What |\n| --- | :---: | ---: |\n| Dashboard | `/` | Start |\n| My Account | `/account` | You |\n',
  ) as ContentTable;

  it('makes a header row and one row per markdown row', () => {
    expect(table.table.headerRows).toBe(1);
    expect(table.table.body).toHaveLength(3);
    expect(table.table.body[0]![0]).toMatchObject({
      style: 'tableHeader',
      text: [{ text: 'Item' }],
    });
    expect(table.table.body[2]![1]).toMatchObject({
      text: [{ text: '/account', style: 'inlineCode' }],
    });
  });

  it('follows the markdown column alignment', () => {
    expect(table.table.body[1]!.map((cell) => (cell as ContentText).alignment)).toEqual([
      'left',
      'center',
      'right',
    ]);
  });

  it('lets the last column take the remaining width and draws no vertical lines', () => {
    expect(table.table.widths).toEqual(['auto', 'auto', '*']);
    expect(typeof table.layout).toBe('object');
    const layout = table.layout as { vLineWidth: (i: number) => number };
    expect(layout.vLineWidth(0)).toBe(0);
  });
});

describe('code blocks, quotes and rules', () => {
  it('sets a code block in the monospace style, keeping its indentation and lines', () => {
    const code = only(
      '```sh\nnpm run create-admin -- \\\n  --username admin\n```\n',
    ) as ContentTable;
    const cell = code.table.body[0]![0] as ContentText;
    expect(cell).toEqual({
      text: 'npm run create-admin -- \\\n  --username admin',
      style: 'codeBlock',
      preserveLeadingSpaces: true,
    });
    expect(code.table.dontBreakRows).toBe(true);
    const layout = code.layout as { fillColor: (row: number) => string };
    expect(layout.fillColor(0)).toMatch(/^#/);
  });

  it('lets a very long code block break across pages', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const code = only(`\`\`\`\n${lines}\n\`\`\`\n`) as ContentTable;
    expect(code.table.dontBreakRows).toBe(false);
  });

  it('boxes a blockquote with its paragraphs inside', () => {
    const quote = only('> **Tip:** log out.\n>\n> Second paragraph.\n') as ContentTable;
    expect(quote).toMatchObject({ style: 'blockquote' });
    const inner = (quote.table.body[0]![0] as { stack: Block[] }).stack;
    expect(inner).toHaveLength(2);
    expect(leaves(inner[0]!)[0]).toEqual({ text: 'Tip:', bold: true });
  });

  it('draws a horizontal rule as a line across the text width', () => {
    const [before, rule, after] = body('Above.\n\n---\n\nBelow.\n');
    expect(joined(before!)).toBe('Above.');
    expect(rule).toMatchObject({ canvas: [{ type: 'line', x1: 0 }] });
    expect((rule as { canvas: { x2: number }[] }).canvas[0]!.x2).toBeGreaterThan(400);
    expect(joined(after!)).toBe('Below.');
  });

  it('prints nothing for HTML comments', () => {
    expect(body('<!-- a note for writers -->\n\nVisible.\n').map(joined)).toEqual(['Visible.']);
  });
});

describe('pictures', () => {
  // A 1x1 PNG: any real picture would do.
  const png =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
  const withPicture = '## Chapter\n\n![The editor with two tabs](images/editor.png)\n';

  it('lists the pictures a manual shows, each once', () => {
    expect(
      imagePaths(`${withPicture}\n![Again](images/editor.png)\n\n![Other](images/list.png)\n`),
    ).toEqual(['images/editor.png', 'images/list.png']);
  });

  it('draws a picture on a line of its own, framed, with its description as the caption', () => {
    const doc = markdownToPdf(withPicture, { date, images: { 'images/editor.png': png } });
    const content = doc.content as Block[];
    const figure = content.at(-1) as { stack: Content[]; unbreakable: boolean };
    expect(figure.unbreakable).toBe(true);
    const frame = figure.stack[0] as ContentTable;
    // By its path: the document's images map it to the data, so a second showing is not a
    // second copy in the file.
    expect((frame.table.body[0]![0] as { image: string }).image).toBe('images/editor.png');
    expect(doc.images).toEqual({ 'images/editor.png': png });
    expect(figure.stack[1]).toMatchObject({ text: 'The editor with two tabs', style: 'caption' });
  });

  it('refuses a picture it was not given, rather than leave a hole', () => {
    expect(() => markdownToPdf(withPicture, { date })).toThrow(
      'The manual shows images/editor.png, but no such picture was given.',
    );
  });

  it('keeps the description of a picture inside a line of text', () => {
    const node = only('Click ![the gear](images/gear.png) to open it.\n');
    expect(joined(node)).toBe('Click [the gear] to open it.');
  });
});
