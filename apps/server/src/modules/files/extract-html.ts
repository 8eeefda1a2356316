import { Parser } from 'htmlparser2';
import type { Content } from 'pdfmake/interfaces';
import { breakable } from './extract-text.js';

/** The proposal extract's rich-text answers (HTML) as pdfmake content. */

/** Rich-text answers are HTML that starts with a tag (`<p>`, `<ul>`, `<h2>`…). */
export function looksLikeHtml(text: string): boolean {
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
export function richText(html: string): Content | null {
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
