import { formatDate, type CommitteeRoleName } from '@merit/domain';

export const ROLE_LABELS: Record<CommitteeRoleName, string> = { CHAIR: 'Chair', MEMBER: 'Member' };

/**
 * A role's edge as a calendar day. Roles are whole days in UTC (the form sends
 * `YYYY-MM-DD`, which the server stores as the start or the last millisecond of that day
 * in UTC), so the day is read in UTC too: in the browser's zone, a role "until 31
 * December" would show as 1 January east of Greenwich.
 */
export function formatRoleDate(iso: string): string {
  return formatDate(new Date(iso), { timeZone: 'UTC' });
}

/** The `YYYY-MM-DD` of a role's edge, for a date input: the same UTC day as above. */
export function toDateInputValue(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}
