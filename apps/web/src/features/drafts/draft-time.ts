const timeOfDay = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short' });

/**
 * When something was typed or saved, in the browser's local time as the editors say it:
 * "14:32" today, "3 March 2026 at 14:32" on another day.
 */
export function localTime(at: number | string | Date, now: Date = new Date()): string {
  const when = new Date(at);
  return when.toDateString() === now.toDateString()
    ? timeOfDay.format(when)
    : dayAndTime.format(when);
}

/** The same with its preposition, to follow a verb: "at 14:32", "on 3 March 2026 at 14:32". */
export function atLocalTime(at: number | string | Date, now: Date = new Date()): string {
  const when = new Date(at);
  return `${when.toDateString() === now.toDateString() ? 'at' : 'on'} ${localTime(when, now)}`;
}
