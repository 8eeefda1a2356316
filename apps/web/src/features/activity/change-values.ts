import type { ActivityEntry } from '@merit/contract';

/*
 * How History and Activity write the values an audit row kept. They are whatever the
 * changed entity held (text, numbers, flags, lists, whole answers as objects), capped by
 * the server at a thousand characters: short ones read inline, the rest wait behind
 * "Show values" so one saved form does not push every other row off the screen.
 */

/** Longer than this, a value is shown on request rather than in the row. */
export const INLINE_LIMIT = 80;

/** What an absent, null or empty value reads as. */
export const NO_VALUE = '—';

type Primitive = string | number | boolean | null | undefined;

const isPrimitive = (value: unknown): value is Primitive =>
  value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);

function primitiveText(value: Primitive): string {
  if (value === null || value === undefined || value === '') return NO_VALUE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/**
 * The value as it reads inline: a short string, number or flag, or a list of them with
 * commas; null when it is too long or has parts of its own (an object, a list of objects,
 * a line break).
 */
export function inlineValue(value: unknown): string | null {
  let text: string;
  if (isPrimitive(value)) text = primitiveText(value);
  else if (Array.isArray(value) && value.every(isPrimitive))
    text = value.length === 0 ? NO_VALUE : value.map(primitiveText).join(', ');
  else return null;
  return text.length <= INLINE_LIMIT && !text.includes('\n') ? text : null;
}

/** The value whole, for "Show values": a string as it is, anything else as indented JSON. */
export function fullValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return NO_VALUE;
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

export type FieldChange =
  /** Only the field's name: the reader may not see its values (a review's text, for chairs). */
  | { field: string; kind: 'name' }
  /** Both sides short: `field: before → after` (a side the row lacks reads as NO_VALUE). */
  | { field: string; kind: 'inline'; before: string | null; after: string }
  /** A side too long for the row: shown on request. */
  | { field: string; kind: 'long'; before: string | null; after: string | null };

/**
 * The changed fields of a row, in the order the server wrote them. A creation has only
 * `after` (its `before` is null, not shown), a deletion only `before` (then `after` is
 * NO_VALUE: the value went).
 */
export function fieldChanges(changes: ActivityEntry['changes']): FieldChange[] {
  return Object.entries(changes).map(([field, change]): FieldChange => {
    const hasBefore = 'before' in change;
    const hasAfter = 'after' in change;
    if (!hasBefore && !hasAfter) return { field, kind: 'name' };
    const before = hasBefore ? inlineValue(change.before) : null;
    const after = hasAfter ? inlineValue(change.after) : NO_VALUE;
    if ((hasBefore && before === null) || after === null)
      return {
        field,
        kind: 'long',
        before: hasBefore ? fullValue(change.before) : null,
        after: hasAfter ? fullValue(change.after) : null,
      };
    return { field, kind: 'inline', before, after };
  });
}
