const WORD = /\S+/g;

/** Words as a person counts them: runs of anything but white space. */
export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/**
 * The text without its words beyond the `max`th (spec section 5: textareas truncate to
 * their word limit). What comes before stays as typed, the space after the last word
 * too: a word typed after it is dropped, rather than run into the last one.
 */
export function truncateWords(text: string, max: number): string {
  let count = 0;
  for (const match of text.matchAll(WORD)) {
    count += 1;
    if (count > max) return text.slice(0, match.index);
  }
  return text;
}

/** A textarea's word limit (`ui:options.maxWords`), when it has a usable one. */
export function maxWordsOption(options: Record<string, unknown>): number | null {
  const max = options.maxWords;
  return typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : null;
}
