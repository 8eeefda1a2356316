import type { ActivityEntry } from '@merit/contract';
import {
  AUDIT_ACTION_LABELS,
  historyRowFor,
  spreadsheetText,
  type AuditChangeSet,
  type HistoryReader,
} from '@merit/domain';
import { isSecurityEvent, SECURITY_EVENT_LABELS } from '../../platform/security/security-log.js';
import type { ActivityRow } from './activity.queries.js';

/*
 * How the History and Activity pages show a row of the log: its action in words, its
 * people by name, and only what the reader may see of its changes (`historyRowFor`, the
 * domain's one rule). The CSV of the Activity pages holds the same, one row a line.
 */

/** An action or a security event in words; an action Merit no longer writes as it is. */
export function labelOf(action: string): string {
  if (isSecurityEvent(action)) return SECURITY_EVENT_LABELS[action];
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

/** A security event's details as the changes the pages show: each field's value as `after`. */
const detailsAsChanges = (details: Record<string, unknown>): AuditChangeSet =>
  Object.fromEntries(Object.entries(details).map(([field, value]) => [field, { after: value }]));

/**
 * One row as `reader` may see it, or null for nothing: the team's own timeline, a chair's
 * view without a review's values, an administrator's whole row with its request and
 * address. `teamIds` are the proposal's author and collaborators (the team's timeline).
 */
export function presentActivity(
  row: ActivityRow,
  reader: HistoryReader,
  teamIds: readonly number[] = [],
): ActivityEntry | null {
  const changes =
    row.source === 'security' ? detailsAsChanges(row.data) : (row.data as AuditChangeSet);
  const seen = historyRowFor(
    reader,
    { action: row.action, actorId: row.actorId, changes },
    teamIds,
  );
  if (!seen) return null;
  return {
    key: `${row.source}-${row.id}`,
    at: row.at.toISOString(),
    action: row.action,
    label: labelOf(row.action),
    actor:
      row.actorId !== null && row.actorName !== null
        ? { id: row.actorId, name: row.actorName }
        : null,
    subject:
      row.subjectId !== null && row.subjectName !== null
        ? { id: row.subjectId, name: row.subjectName }
        : null,
    callId: row.callId,
    proposalId: row.proposalId,
    proposalName: row.proposalName,
    changes: seen.changes,
    ...(reader === 'admin' ? { requestId: row.requestId, address: row.address } : {}),
  };
}

/** The columns of the Activity pages' CSV, in order. */
export const ACTIVITY_CSV_HEADER = ['at', 'person', 'action', 'proposal', 'details'] as const;

/** A value as a CSV cell: quoted when it must be, never run as a spreadsheet formula. */
function cell(value: string): string {
  const text = spreadsheetText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A row's changes in one line: `field: before → after`, or a field alone when its values are withheld. */
export function detailsText(changes: ActivityEntry['changes']): string {
  return Object.entries(changes)
    .map(([field, change]) => {
      const values = [
        'before' in change ? shown(change.before) : null,
        'after' in change ? shown(change.after) : null,
      ].filter((v) => v !== null);
      return values.length === 0 ? field : `${field}: ${values.join(' → ')}`;
    })
    .join('; ');
}

/**
 * The CSV of a filter's rows (RFC 4180, CRLF lines): `at` in ISO 8601 UTC; `person`, who
 * did it (empty for Merit itself); `action` in words; `proposal`, its name (or `#<id>`
 * once deleted, empty when the row concerns none); `details`, the changes in one line.
 */
export function activityCsv(entries: readonly ActivityEntry[]): string {
  const lines = entries.map((e) =>
    [
      e.at,
      e.actor?.name ?? '',
      e.label,
      e.proposalId === null ? '' : (e.proposalName ?? `#${e.proposalId}`),
      detailsText(e.changes),
    ]
      .map(cell)
      .join(','),
  );
  return `${[ACTIVITY_CSV_HEADER.join(','), ...lines].join('\r\n')}\r\n`;
}
