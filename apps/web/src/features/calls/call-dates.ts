import { formatDateTime } from '@merit/domain';

/**
 * An instant in the browser's own time zone (ARCHITECTURE.md "Time"), in the one format
 * Merit writes dates in, with the zone's name: "28 Nov 2026, 15:00 CET" (issue 30).
 */
export function formatCallDate(iso: string): string {
  return formatDateTime(new Date(iso));
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The value of a `datetime-local` input (`YYYY-MM-DDTHH:mm`, local time) for an instant. */
export function toLocalInputValue(iso: string): string {
  const d = new Date(iso);
  return (
    `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}`
  );
}

const LOCAL_INPUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * The instant a `datetime-local` value names in the browser's zone, or null when the
 * input is empty or incomplete. A date-time without an offset is local time in
 * JavaScript, which is what the user picked.
 */
export function fromLocalInputValue(value: string): Date | null {
  if (!LOCAL_INPUT.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
