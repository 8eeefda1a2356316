import type { ContentText } from 'pdfmake/interfaces';

/** Text pieces every part of the proposal extract uses. */

export function muted(text: string): ContentText {
  return { text, style: 'empty' };
}

/**
 * pdfmake breaks a word too long for its line letter by letter, which takes time that
 * grows faster than the word: a pasted 50 KB token would stall the download. A zero-width
 * space every so often lets it break there instead; Roboto draws it as nothing.
 */
export function breakable(text: string): string {
  return text.replace(/[^\s\u200b]{64}(?=[^\s\u200b])/gu, '$&\u200b');
}
