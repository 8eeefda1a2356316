import { Lexer, walkTokens, type Token, type Tokens } from 'marked';
import type {
  Alignment,
  Content,
  ContentCanvas,
  ContentOrderedList,
  ContentTable,
  ContentText,
  ContentUnorderedList,
  CustomTableLayout,
  Margins,
  StyleDictionary,
  TableCell,
  TDocumentDefinitions,
} from 'pdfmake/interfaces';

/**
 * Turns the manual's markdown into a pdfmake document definition. A pure function: no
 * files, no fonts, no clock, so the same text and date always give the same definition.
 *
 * The manual's shape: one level-1 heading at the top is the title (it goes on the title
 * page with any paragraphs before the first chapter); level-2 headings are chapters, each
 * on a new page and listed in the contents; level-3 headings are sections. A level-1
 * heading further down starts a part and is listed in the contents too.
 */

export interface ManualOptions {
  /** Shown on the title page and stored as the PDF's creation date. */
  date: Date;
  /**
   * The pictures the manual shows, by the path its markdown gives (`images/editor.png`),
   * as data URLs; the caller reads the files, so this stays a pure function.
   */
  images?: Readonly<Record<string, string>>;
}

/** The image paths a manual's markdown refers to, in order, each once. */
export function imagePaths(markdown: string): string[] {
  const paths = new Set<string>();
  walkTokens(new Lexer({ gfm: true }).lex(markdown), (token) => {
    if (token.type === 'image') paths.add((token as Tokens.Image).href);
  });
  return [...paths];
}

/**
 * pdfmake 0.3 calls `pageBreakBefore(node, queries)`; @types/pdfmake still describes
 * 0.2's four-argument form, so this type states the one we actually get.
 */
export interface PageBreakNode {
  headlineLevel?: number;
  style?: string | string[];
  pageNumbers: number[];
}
export interface PageBreakQueries {
  getFollowingNodesOnPage(): PageBreakNode[];
}
export type ManualDocDefinition = Omit<TDocumentDefinitions, 'pageBreakBefore'> & {
  pageBreakBefore?: (node: PageBreakNode, queries: PageBreakQueries) => boolean;
};

/** Heading nodes carry pdfmake 0.3's bookmark fields, which @types/pdfmake 0.2 lacks. */
export type HeadingNode = ContentText & {
  tocItem?: boolean;
  tocMargin?: Margins;
  tocStyle?: string;
  id: string;
  headlineLevel: number;
  outline?: boolean;
  outlineText?: string;
  outlineParentId?: string;
};

/** A block of the manual: any pdfmake node that is an object (so it can take a page break). */
export type Block = Exclude<Content, string | number | Content[]>;

/** The monospace family the renderer must register (see render-pdf.ts). */
export const MONO_FONT = 'RobotoMono';

const PAGE_WIDTH = 595.28; // A4 in points
const PAGE_MARGINS: [number, number, number, number] = [62, 60, 62, 64];
const CONTENT_WIDTH = PAGE_WIDTH - PAGE_MARGINS[0] - PAGE_MARGINS[2];

const colors = {
  text: '#1f2328',
  muted: '#59636e',
  accent: '#1d4f91',
  rule: '#d0d7de',
  codeBackground: '#f3f4f6',
  quoteBackground: '#eef4fb',
  quoteBar: '#7aa3d6',
  tableHeader: '#eef1f4',
};

export const styles: StyleDictionary = {
  title: { fontSize: 30, bold: true, color: colors.accent, margin: [0, 180, 0, 14] },
  subtitle: { fontSize: 13, color: colors.muted, margin: [0, 0, 0, 6] },
  titleDate: { fontSize: 11, color: colors.muted, margin: [0, 24, 0, 0] },
  tocTitle: { fontSize: 20, bold: true, color: colors.accent, margin: [0, 0, 0, 16] },
  tocPart: { fontSize: 11, bold: true },
  tocChapter: { fontSize: 11 },
  h1: { fontSize: 24, bold: true, color: colors.accent, margin: [0, 0, 0, 14] },
  h2: { fontSize: 19, bold: true, color: colors.accent, margin: [0, 0, 0, 12] },
  h3: { fontSize: 13.5, bold: true, color: colors.text, margin: [0, 10, 0, 6] },
  h4: { fontSize: 11, bold: true, color: colors.text, margin: [0, 8, 0, 4] },
  paragraph: { margin: [0, 0, 0, 8] },
  caption: { fontSize: 9, italics: true, color: colors.muted, margin: [0, 4, 0, 0] },
  list: { margin: [0, 0, 0, 8] },
  listItem: { margin: [0, 0, 0, 2] },
  looseListItem: { margin: [0, 0, 0, 6] },
  nestedList: { margin: [0, 2, 0, 0] },
  codeBlock: { font: MONO_FONT, fontSize: 8.8, lineHeight: 1.2, color: colors.text },
  inlineCode: { font: MONO_FONT, fontSize: 9.2, background: colors.codeBackground },
  link: { color: colors.accent, decoration: 'underline' },
  table: { margin: [0, 2, 0, 10], fontSize: 9.8 },
  tableHeader: { bold: true },
  blockquote: { margin: [0, 2, 0, 10], color: '#24364f' },
  footer: { fontSize: 8.5, color: colors.muted },
};

/** Tables: a rule under the header and between rows, no vertical lines. */
const tableLayout: CustomTableLayout = {
  hLineWidth: (i, node) => (i === 0 || i === node.table.body.length ? 0.8 : i === 1 ? 0.8 : 0.4),
  hLineColor: (i) => (i === 1 ? '#8c959f' : colors.rule),
  vLineWidth: () => 0,
  fillColor: (row) => (row === 0 ? colors.tableHeader : null),
  paddingLeft: () => 6,
  paddingRight: () => 6,
  paddingTop: () => 4,
  paddingBottom: () => 4,
};

const codeLayout: CustomTableLayout = {
  hLineWidth: () => 0,
  vLineWidth: () => 0,
  fillColor: () => colors.codeBackground,
  paddingLeft: () => 9,
  paddingRight: () => 9,
  paddingTop: () => 7,
  paddingBottom: () => 5,
};

/** A coloured bar on the left and a light background, for notes and tips. */
const quoteLayout: CustomTableLayout = {
  hLineWidth: () => 0,
  vLineWidth: (i) => (i === 0 ? 3 : 0),
  vLineColor: () => colors.quoteBar,
  fillColor: () => colors.quoteBackground,
  paddingLeft: () => 10,
  paddingRight: () => 10,
  paddingTop: () => 7,
  paddingBottom: () => 0,
};

/** Marked leaves HTML entities in text; these are the ones a manual writer types. */
const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  mdash: '\u2014',
  ndash: '\u2013',
  hellip: '\u2026',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) {
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    }
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return entities[name.toLowerCase()] ?? whole;
  });
}

/** GitHub's heading anchors, so `[see](#logging-in-and-out)` works as it does on GitHub. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The plain text of inline tokens, for bookmarks and anchors. */
function plainText(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  return tokens
    .map((token) => {
      if ('tokens' in token && token.tokens) return plainText(token.tokens);
      if (token.type === 'br') return ' ';
      return 'text' in token && typeof token.text === 'string' ? decodeEntities(token.text) : '';
    })
    .join('');
}

interface InlineStyle {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  link?: string;
  linkToDestination?: string;
}

function leaf(text: string, style: InlineStyle, extraStyles: string[] = []): ContentText {
  const node: ContentText = { text };
  if (style.bold) node.bold = true;
  if (style.italics) node.italics = true;
  if (style.strike) node.decoration = 'lineThrough';
  const names = [...extraStyles];
  if (style.link) {
    node.link = style.link;
    names.push('link');
  }
  if (style.linkToDestination) {
    node.linkToDestination = style.linkToDestination;
    names.push('link');
  }
  if (names.length === 1) node.style = names[0];
  else if (names.length > 1) node.style = names;
  return node;
}

function convertInline(tokens: readonly Token[], style: InlineStyle = {}): ContentText[] {
  const out: ContentText[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'escape': {
        const t = token as Tokens.Text | Tokens.Escape;
        if ('tokens' in t && t.tokens && t.tokens.length > 0) {
          out.push(...convertInline(t.tokens, style));
        } else {
          // A soft line break inside a paragraph is a space, as in HTML.
          out.push(leaf(decodeEntities(t.text).replace(/\n/g, ' '), style));
        }
        break;
      }
      case 'strong':
        out.push(...convertInline((token as Tokens.Strong).tokens, { ...style, bold: true }));
        break;
      case 'em':
        out.push(...convertInline((token as Tokens.Em).tokens, { ...style, italics: true }));
        break;
      case 'del':
        out.push(...convertInline((token as Tokens.Del).tokens, { ...style, strike: true }));
        break;
      case 'codespan':
        out.push(leaf((token as Tokens.Codespan).text, style, ['inlineCode']));
        break;
      case 'br':
        out.push(leaf('\n', style));
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const target = link.href.startsWith('#')
          ? { linkToDestination: link.href.slice(1) }
          : { link: link.href };
        out.push(...convertInline(link.tokens, { ...style, ...target }));
        break;
      }
      case 'image': {
        // A picture inside a line of text cannot be drawn there: keep its description.
        const image = token as Tokens.Image;
        out.push(leaf(`[${image.text}]`, { ...style, italics: true }));
        break;
      }
      case 'html':
        // Inline HTML (comments, tags) is for the markdown source only.
        break;
      default:
        if ('text' in token && typeof token.text === 'string') {
          out.push(leaf(decodeEntities(token.text), style));
        }
    }
  }
  return out;
}

/**
 * A picture on a line of its own: the screenshot at the width of the text, framed, with
 * its description below as the caption (and as the text where the picture is missing).
 */
function figure(converter: Converter, image: Tokens.Image): Block {
  const data = converter.images[image.href];
  const caption: ContentText = { text: image.text, style: 'caption' };
  if (!data) throw new Error(`The manual shows ${image.href}, but no such picture was given.`);
  // By its path, which the document's `images` maps to the data: a picture shown twice (the
  // Quick tour shows the chapters' pictures again) is then embedded in the PDF once.
  return {
    stack: [
      {
        table: { widths: ['*'], body: [[{ image: image.href, fit: [CONTENT_WIDTH - 2, 420] }]] },
        layout: figureLayout,
      },
      caption,
    ],
    margin: [0, 6, 0, 12],
    unbreakable: true,
  };
}

const figureLayout: CustomTableLayout = {
  hLineWidth: () => 0.75,
  vLineWidth: () => 0.75,
  hLineColor: () => colors.rule,
  vLineColor: () => colors.rule,
  paddingLeft: () => 0,
  paddingRight: () => 0,
  paddingTop: () => 0,
  paddingBottom: () => 0,
};

interface Converter {
  /** The pictures the manual may show, by path (ManualOptions.images). */
  images: Readonly<Record<string, string>>;
  /** Ids already used, so that two headings with the same text get distinct anchors. */
  ids: Set<string>;
  /** The id of the latest heading at each level, for nesting the bookmarks. */
  latest: Map<number, string>;
  hasParts: boolean;
  /** How many lists enclose the one being converted: nested lists get other markers. */
  listDepth: number;
}

function uniqueId(converter: Converter, text: string): string {
  const base = slugify(text) || 'section';
  let id = base;
  for (let n = 1; converter.ids.has(id); n += 1) id = `${base}-${n}`;
  converter.ids.add(id);
  return id;
}

function convertHeading(converter: Converter, token: Tokens.Heading): HeadingNode {
  const level = Math.min(token.depth, 4);
  const text = plainText(token.tokens);
  const node: HeadingNode = {
    text: convertInline(token.tokens),
    style: `h${level}`,
    id: uniqueId(converter, text),
    headlineLevel: level,
    outline: true,
    outlineText: text,
  };
  for (let above = level - 1; above >= 1; above -= 1) {
    const parent = converter.latest.get(above);
    if (parent) {
      node.outlineParentId = parent;
      break;
    }
  }
  converter.latest.set(level, node.id);
  for (let below = level + 1; below <= 4; below += 1) converter.latest.delete(below);
  if (level === 1) {
    node.tocItem = true;
    node.tocStyle = 'tocPart';
    node.tocMargin = [0, 10, 0, 2];
  } else if (level === 2) {
    node.tocItem = true;
    node.tocStyle = 'tocChapter';
    node.tocMargin = [converter.hasParts ? 14 : 0, 4, 0, 0];
  }
  return node;
}

function convertListItem(converter: Converter, item: Tokens.ListItem, loose: boolean): Content {
  const blocks: Block[] = [];
  for (const token of item.tokens) {
    if (token.type === 'text') {
      const text = token as Tokens.Text;
      blocks.push({ text: convertInline(text.tokens ?? [text]) });
    } else if (token.type === 'list') {
      blocks.push(convertList(converter, token as Tokens.List));
    } else {
      blocks.push(...convertBlock(converter, token));
    }
  }
  return { stack: blocks, style: loose ? 'looseListItem' : 'listItem' };
}

function convertList(
  converter: Converter,
  token: Tokens.List,
): ContentOrderedList | ContentUnorderedList {
  const nested = converter.listDepth > 0;
  converter.listDepth += 1;
  const items = token.items.map((item) => convertListItem(converter, item, token.loose));
  converter.listDepth -= 1;
  if (token.ordered) {
    const list: ContentOrderedList = { ol: items, style: nested ? 'nestedList' : 'list' };
    if (nested) list.type = 'lower-alpha';
    if (typeof token.start === 'number' && token.start !== 1) list.start = token.start;
    return list;
  }
  const list: ContentUnorderedList = { ul: items, style: nested ? 'nestedList' : 'list' };
  if (nested) list.type = 'circle';
  return list;
}

/** Code blocks up to this many lines are never split across pages. */
const KEEP_TOGETHER_LINES = 25;

function convertCode(token: Tokens.Code): ContentTable {
  // A one-cell table gives the block its background and padding; pdfmake has no boxes.
  // A short block moves to the next page whole rather than splitting a command in two.
  return {
    table: {
      widths: ['*'],
      dontBreakRows: token.text.split('\n').length <= KEEP_TOGETHER_LINES,
      body: [[{ text: token.text, style: 'codeBlock', preserveLeadingSpaces: true }]],
    },
    layout: codeLayout,
    margin: [0, 2, 0, 10],
  };
}

/** Cells up to this many characters, outside the last column, are not wrapped. */
const SHORT_CELL = 24;

function convertTable(token: Tokens.Table): ContentTable {
  const alignment = (i: number): Alignment => token.align[i] ?? 'left';
  const columns = token.header.length;
  const cell = (c: Tokens.TableCell, i: number, header: boolean): TableCell => ({
    text: convertInline(c.tokens),
    alignment: alignment(i),
    ...(header ? { style: 'tableHeader' } : {}),
    // pdfmake squeezes 'auto' columns down to their longest word when the last column is
    // long; short labels and addresses read better kept on one line.
    ...(i < columns - 1 && plainText(c.tokens).length <= SHORT_CELL ? { noWrap: true } : {}),
  });
  return {
    table: {
      headerRows: 1,
      // The last column takes the room that is left; the others fit their contents.
      widths: Array.from({ length: columns }, (_, i) => (i === columns - 1 ? '*' : 'auto')),
      body: [
        token.header.map((c, i) => cell(c, i, true)),
        ...token.rows.map((row) => row.map((c, i) => cell(c, i, false))),
      ],
    },
    layout: tableLayout,
    style: 'table',
  };
}

function horizontalRule(): ContentCanvas {
  return {
    canvas: [
      {
        type: 'line',
        x1: 0,
        y1: 0,
        x2: CONTENT_WIDTH,
        y2: 0,
        lineWidth: 0.6,
        lineColor: colors.rule,
      },
    ],
    margin: [0, 6, 0, 12],
  };
}

function convertBlock(converter: Converter, token: Token): Block[] {
  switch (token.type) {
    case 'heading':
      return [convertHeading(converter, token as Tokens.Heading)];
    case 'paragraph': {
      const inline = (token as Tokens.Paragraph).tokens;
      const only = inline.length === 1 && inline[0]!.type === 'image' ? inline[0] : undefined;
      if (only) return [figure(converter, only as Tokens.Image)];
      return [{ text: convertInline(inline), style: 'paragraph' }];
    }
    case 'text': {
      const text = token as Tokens.Text;
      return [{ text: convertInline(text.tokens ?? [text]), style: 'paragraph' }];
    }
    case 'list':
      return [convertList(converter, token as Tokens.List)];
    case 'code':
      return [convertCode(token as Tokens.Code)];
    case 'table':
      return [convertTable(token as Tokens.Table)];
    case 'blockquote': {
      const inner = (token as Tokens.Blockquote).tokens.flatMap((t) => convertBlock(converter, t));
      const quote: ContentTable = {
        table: { widths: ['*'], body: [[{ stack: inner }]] },
        layout: quoteLayout,
        style: 'blockquote',
      };
      return [quote];
    }
    case 'hr':
      return [horizontalRule()];
    default:
      // space, html comments and link definitions print nothing.
      return [];
  }
}

/**
 * A link to an anchor that no heading has would do nothing in the PDF; say so at build
 * time, while the writer still remembers which heading was renamed.
 */
function checkAnchors(tokens: Token[], ids: ReadonlySet<string>): void {
  const broken: string[] = [];
  walkTokens(tokens, (token) => {
    if (token.type === 'link' && token.href.startsWith('#') && !ids.has(token.href.slice(1))) {
      broken.push(token.href);
    }
  });
  if (broken.length > 0) {
    throw new Error(
      `The manual links to ${broken.join(', ')}, but no heading has that anchor. ` +
        'An anchor is the heading in lower case, with punctuation removed and spaces as hyphens.',
    );
  }
}

function formatDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

function titlePage(title: string, preamble: Content[], date: Date): Content[] {
  return [
    { text: title, style: 'title' },
    { stack: preamble, style: 'subtitle' },
    { text: formatDate(date), style: 'titleDate' },
  ];
}

/** A chapter or part heading starts a page, unless it follows its part's heading. */
function startsPage(node: Block, previous: Block | undefined): boolean {
  const own = node.headlineLevel;
  return own !== undefined && own <= 2 && previous?.headlineLevel !== 1;
}

export function markdownToPdf(markdown: string, options: ManualOptions): ManualDocDefinition {
  const tokens = new Lexer({ gfm: true }).lex(markdown);

  // The leading level-1 heading is the title; what stands before the first chapter goes
  // under it on the title page.
  let title = 'User manual';
  let rest: Token[] = tokens;
  const first = tokens.findIndex((t) => t.type !== 'space' && t.type !== 'html');
  const firstToken = tokens[first];
  if (firstToken?.type === 'heading' && (firstToken as Tokens.Heading).depth === 1) {
    title = plainText((firstToken as Tokens.Heading).tokens);
    rest = tokens.slice(first + 1);
  }
  const firstChapter = rest.findIndex((t) => t.type === 'heading');
  const preambleTokens = firstChapter === -1 ? [] : rest.slice(0, firstChapter);
  const bodyTokens = firstChapter === -1 ? rest : rest.slice(firstChapter);

  const converter: Converter = {
    images: options.images ?? {},
    ids: new Set(),
    latest: new Map(),
    hasParts: bodyTokens.some((t) => t.type === 'heading' && (t as Tokens.Heading).depth === 1),
    listDepth: 0,
  };
  const preamble = preambleTokens.flatMap((t) => convertBlock(converter, t));
  const body = bodyTokens.flatMap((t) => convertBlock(converter, t));
  checkAnchors(tokens, converter.ids);

  // Contents on a page of their own after the title; the first block after them starts
  // a new page whatever it is.
  body.forEach((node, i) => {
    if (i === 0 || startsPage(node, body[i - 1])) node.pageBreak = 'before';
  });

  return {
    info: {
      title,
      subject: 'How to use Merit',
      creator: 'Merit',
      producer: 'Merit manual builder (pdfmake)',
      creationDate: options.date,
      modDate: options.date,
    },
    pageSize: 'A4',
    pageMargins: PAGE_MARGINS,
    images: { ...converter.images },
    content: [
      ...titlePage(title, preamble, options.date),
      {
        toc: { title: { text: 'Contents', style: 'tocTitle' } },
        pageBreak: 'before',
      },
      ...body,
    ],
    footer: (currentPage, pageCount) =>
      currentPage === 1
        ? null
        : {
            columns: [
              { text: title, style: 'footer' },
              { text: `Page ${currentPage} of ${pageCount}`, style: 'footer', alignment: 'right' },
            ],
            style: 'footer',
            margin: [PAGE_MARGINS[0], 24, PAGE_MARGINS[2], 0],
          },
    // Never leave a heading alone at the foot of a page. The footer is laid out with the
    // page, so it is among the nodes that follow and does not count.
    pageBreakBefore: (node, queries) =>
      node.headlineLevel !== undefined &&
      queries.getFollowingNodesOnPage().every((next) => next.style === 'footer'),
    styles,
    defaultStyle: { font: 'Roboto', fontSize: 10.5, lineHeight: 1.25, color: colors.text },
  };
}
