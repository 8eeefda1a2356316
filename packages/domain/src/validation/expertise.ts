import { MAX_EXPERTISE_ITEMS, MAX_EXPERTISE_ITEM_LENGTH } from '../assignment/assignment.js';
import { addErrors, type FieldErrors } from './fields.js';

/*
 * A committee member's expertise, kept on their committee role: the facilities they know
 * and keywords of their field (issue 27). Automatic assignment matches them against a
 * proposal's facilities and keywords as a small bonus, so they are optional, and two
 * spellings of one word would only count it twice.
 */

export const EXPERTISE_FIELDS = ['facilities', 'keywords'] as const;
export type ExpertiseField = (typeof EXPERTISE_FIELDS)[number];

const NOUNS: Record<ExpertiseField, { one: string; many: string }> = {
  facilities: { one: 'facility', many: 'facilities' },
  keywords: { one: 'keyword', many: 'keywords' },
};

/** How much of a too-long item a message quotes, so the reader can find it. */
const QUOTED_LENGTH = 30;

export const expertiseMessages = {
  tooMany: (field: ExpertiseField) => `Enter at most ${MAX_EXPERTISE_ITEMS} ${NOUNS[field].many}.`,
  tooLong: (field: ExpertiseField, item: string) => {
    const quoted = item.length > QUOTED_LENGTH ? `${item.slice(0, QUOTED_LENGTH)}…` : item;
    return `Each ${NOUNS[field].one} can have at most ${MAX_EXPERTISE_ITEM_LENGTH} characters: shorten “${quoted}”.`;
  },
} as const;

export type ExpertiseInput = Partial<Record<ExpertiseField, readonly string[] | null>>;
export type Expertise = Record<ExpertiseField, string[]>;

/**
 * The items trimmed, blanks dropped, and a later item that differs from an earlier one
 * only in case dropped (the first spelling stays). Missing is none.
 */
export function normalizeExpertiseList(items: readonly string[] | null | undefined): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of items ?? []) {
    const item = raw.trim();
    const key = item.toLowerCase();
    if (item === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(item);
  }
  return kept;
}

/** Comma-separated text as a form takes it, as a list. */
export function parseExpertiseText(text: string): string[] {
  return normalizeExpertiseList(text.split(','));
}

/**
 * Facilities and keywords, each normalized and then held to at most
 * MAX_EXPERTISE_ITEMS items of at most MAX_EXPERTISE_ITEM_LENGTH characters. Leaving
 * either out means none: a role is always sent whole.
 */
export function validateExpertise(
  input: ExpertiseInput,
): { ok: true; value: Expertise } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const value: Expertise = { facilities: [], keywords: [] };
  for (const field of EXPERTISE_FIELDS) {
    const items = normalizeExpertiseList(input[field]);
    if (items.length > MAX_EXPERTISE_ITEMS)
      addErrors(errors, field, [expertiseMessages.tooMany(field)]);
    const tooLong = items.find((item) => item.length > MAX_EXPERTISE_ITEM_LENGTH);
    if (tooLong !== undefined)
      addErrors(errors, field, [expertiseMessages.tooLong(field, tooLong)]);
    value[field] = items;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
}
