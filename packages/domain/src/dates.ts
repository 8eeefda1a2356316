/**
 * The instants Merit stores: far enough either way for any call or committee term, and
 * inside what both JavaScript and PostgreSQL timestamps hold (PostgreSQL has no year 0,
 * and a JavaScript year past 9999 prints as "+010000", which PostgreSQL cannot read).
 */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;

export const dateRangeMessage = `Enter a date between the years ${MIN_YEAR} and ${MAX_YEAR}.`;

/** True for a real instant whose UTC year lies in [MIN_YEAR, MAX_YEAR]. */
export function isStorableDate(date: Date): boolean {
  if (Number.isNaN(date.getTime())) return false;
  const year = date.getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

// One formatter for every call: making one costs far more than formatting with it (a
// sweep of 10,000 reminders spent 4 s making them).
const utcFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/**
 * An instant as a message says it to people in every time zone: UTC, written out
 * ("3 March 2026 at 14:32 UTC"), the same in the browser and on the server.
 */
export const utcTime = (at: Date) => `${utcFormat.format(at)} UTC`;
