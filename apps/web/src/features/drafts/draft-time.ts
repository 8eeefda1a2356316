import { formatDateTime, formatTime } from '@merit/domain';

/**
 * When something was typed or saved, in the browser's local time as the editors say it,
 * in Merit's one format with its zone: "14:32 CET" today, "3 Mar 2026, 14:32 CET" on
 * another day.
 */
export function localTime(at: number | string | Date, now: Date = new Date()): string {
  const when = new Date(at);
  return when.toDateString() === now.toDateString() ? formatTime(when) : formatDateTime(when);
}

/** The same with its preposition, to follow a verb: "at 14:32 CET", "on 3 Mar 2026, 14:32 CET". */
export function atLocalTime(at: number | string | Date, now: Date = new Date()): string {
  const when = new Date(at);
  return `${when.toDateString() === now.toDateString() ? 'at' : 'on'} ${localTime(when, now)}`;
}
