import { describe, expect, it } from 'vitest';
import { PAYLOADS } from '../../../../../e2e/security/xss-payloads.js';
import { sanitizeRichText } from './rich-text.js';

/** What the allow-list keeps: these tags, these attributes, these URLs. */
const TAGS = new Set(
  'p br strong b em i u s strike code pre blockquote h1 h2 h3 h4 ul ol li a hr img span table thead tbody tr th td'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set(['href', 'title', 'target', 'rel', 'src', 'alt', 'width', 'height']);
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/;

/** Everything in `html` that is markup rather than text: each tag and its attributes. */
function markupOf(html: string) {
  return [...html.matchAll(/<\/?([a-zA-Z][\w:-]*)([^>]*)>/g)].map(([, tag, rest]) => ({
    tag: tag!.toLowerCase(),
    attributes: [...rest!.matchAll(/([^\s=/]+)="([^"]*)"/g)].map(([, name, value]) => ({
      name: name!.toLowerCase(),
      value: value!.replace(/&amp;/g, '&'),
    })),
  }));
}

describe('rich text against the XSS corpus (e2e/security/xss-payloads.ts)', () => {
  it.each(PAYLOADS.map((payload) => [payload.id, payload.category, payload.text]))(
    'payload %i (%s) keeps only allowed tags, attributes and URLs',
    (_id, _category, text) => {
      const clean = sanitizeRichText(`<p>before</p>${text}<p>after</p>`);
      for (const { tag, attributes } of markupOf(clean)) {
        expect(TAGS).toContain(tag);
        for (const { name, value } of attributes) {
          expect(ATTRIBUTES).toContain(name);
          // A web or mail address, or a relative one (no scheme at all).
          if (name === 'href') expect(value).toMatch(/^(https?:|mailto:|[^:]*$)/i);
          if (name === 'src') expect(value).toMatch(DATA_IMAGE);
        }
      }
      // Text stays text: nothing the browser could read as a tag is left unescaped.
      expect(clean.replace(/<\/?[a-zA-Z][^>]*>/g, '')).not.toMatch(/[<>]/);
    },
  );

  it('drops an image whose data URL has anything but base64 after the comma', () => {
    expect(
      sanitizeRichText(
        `<p>x<img src="data:image/png;base64,AAAA&quot; onerror=&quot;alert(1)"></p>`,
      ),
    ).toBe('<p>x</p>');
    expect(sanitizeRichText('<p><img src="data:image/png;base64,AAAA AAAA"></p>')).toBe('<p></p>');
    expect(sanitizeRichText('<p><img src="data:image/png;base64,iVBORw0KGgo="></p>')).toBe(
      '<p><img src="data:image/png;base64,iVBORw0KGgo=" /></p>',
    );
  });
});
