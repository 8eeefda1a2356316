import sanitizeHtml from 'sanitize-html';

/** The largest image a rich-text field may hold (spec section 9: 524288 bytes). */
export const MAX_IMAGE_BYTES = 512 * 1024;

export class ImageTooLargeError extends Error {}

/** The only images rich text keeps: a data URL of one of the editor's types, in base64. */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/i;

/** Bytes of a base64 data URL's payload. */
function dataUrlBytes(src: string): number {
  const comma = src.indexOf(',');
  const payload = src.slice(comma + 1).replace(/=+$/, '');
  return Math.floor((payload.length * 3) / 4);
}

/**
 * Rich text (call descriptions, decision summaries) is cleaned with an allow-list before
 * it is stored (ARCHITECTURE.md "Rich text"): the formatting the editor makes, links to
 * http(s) and mail, and images only as data URLs of at most 512 KiB. Scripts, event
 * handlers, styles and anything else are dropped.
 */
export function sanitizeRichText(html: string): string {
  let tooLarge = false;
  const clean = sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'strike',
      'code',
      'pre',
      'blockquote',
      'h1',
      'h2',
      'h3',
      'h4',
      'ul',
      'ol',
      'li',
      'a',
      'hr',
      'img',
      'span',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
    transformTags: {
      // Links open safely in a new tab.
      a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }),
    },
    exclusiveFilter(frame) {
      if (frame.tag !== 'img') return false;
      const src = frame.attribs.src ?? '';
      // Base64 and nothing else after the comma: an attribute broken open inside the URL
      // (the XSS corpus's `base64,AAAA" onerror="…`) is not an image, and the browser
      // would log a failed load for it on every page that shows the text.
      if (!DATA_IMAGE.test(src)) return true;
      if (dataUrlBytes(src) > MAX_IMAGE_BYTES) tooLarge = true;
      return false;
    },
  });
  if (tooLarge) throw new ImageTooLargeError();
  return clean;
}
