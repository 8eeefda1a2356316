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

/**
 * Where a date is read: an IANA zone ("Europe/Berlin", "UTC"), or none for the zone the
 * code runs in (the browser's, in the web app).
 */
export interface DateFormatOptions {
  timeZone?: string;
}

// The month's name is ours, not the runtime's: ICU writes September "Sept" in en-GB since
// CLDR 38 and "Sep" before, and the browser and the server must write the same date.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// One formatter per zone for every call: making one costs far more than formatting with
// it (a sweep of 10,000 reminders spent 4 s making them).
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    // en-GB names a zone by its short name where it has one everyone reads the same way
    // (UTC, GMT, BST, CET, CEST) and by its offset elsewhere ("GMT+11"), never by an
    // abbreviation that two zones share (CST, IST).
    formatter = new Intl.DateTimeFormat('en-GB', {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
      timeZoneName: 'short',
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

interface DateParts {
  day: string;
  month: string;
  year: string;
  time: string;
  zone: string;
}

function partsOf(at: Date, options: DateFormatOptions): DateParts {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(options.timeZone).formatToParts(at)) {
    parts[part.type] = part.value;
  }
  return {
    day: String(Number(parts.day)),
    month: MONTHS[Number(parts.month) - 1]!,
    year: parts.year!,
    time: `${parts.hour}:${parts.minute}`,
    zone: parts.timeZoneName!,
  };
}

/**
 * An instant as Merit writes it everywhere, on screen, in mail and in PDFs: the day, the
 * 24-hour time and the zone it is read in ("28 Nov 2026, 14:00 UTC", "28 Nov 2026, 15:00
 * CET"), so a reader never has to guess which clock it is on.
 */
export function formatDateTime(at: Date, options: DateFormatOptions = {}): string {
  const p = partsOf(at, options);
  return `${p.day} ${p.month} ${p.year}, ${p.time} ${p.zone}`;
}

/** A calendar day (a value with no time of day) in the same words: "28 Nov 2026". */
export function formatDate(at: Date, options: DateFormatOptions = {}): string {
  const p = partsOf(at, options);
  return `${p.day} ${p.month} ${p.year}`;
}

/** The time of day alone, for a moment earlier today: "14:00 CET". */
export function formatTime(at: Date, options: DateFormatOptions = {}): string {
  const p = partsOf(at, options);
  return `${p.time} ${p.zone}`;
}

/** The zone's short name at that instant ("UTC", "CEST", "GMT+11"), to label a date input. */
export function timeZoneLabel(at: Date = new Date(), options: DateFormatOptions = {}): string {
  return partsOf(at, options).zone;
}

/**
 * An instant as a message says it to people in every time zone: in UTC, and saying so
 * ("3 Mar 2026, 14:32 UTC"), the same in the browser and on the server. Mail, letters and
 * PDFs the server writes use it: the server has no reader's zone to use.
 */
export const utcTime = (at: Date) => formatDateTime(at, { timeZone: 'UTC' });
