import type { MyReminders } from '@merit/contract';
import type { ReminderAudience } from '@merit/domain';
import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { ErrorList } from '../../components/ErrorList';
import { LoadingView } from '../../components/LoadingView';
import { errorMessages } from '../../api/client';
import { formatCallDate } from '../calls/call-dates';
import { useMyReminders } from '../reminders/reminders.api';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What an upcoming reminder is about, for its reader: "2 reviews to write". */
const upcomingWhat = (audience: ReminderAudience, items: number) =>
  audience === 'authors_with_draft'
    ? `${plural(items, 'draft', 'drafts')} to submit`
    : `${plural(items, 'review', 'reviews')} to write`;

const SENT_WHAT: Record<MyReminders['sent'][number]['kind'], string> = {
  rule: 'Reminder',
  copy: 'Copy of the reviewers’ reminders',
  manual: 'Reminder sent by a chair',
};

/**
 * "Reminders you receive" on My Account (issue 28): the reminders due to the person and
 * those sent to them lately. They cannot be turned off; the page says why.
 */
export function MyRemindersSection({ labelledBy }: { labelledBy: string }) {
  const reminders = useMyReminders();
  return (
    <>
      <Typography sx={{ mb: 2, maxWidth: 720 }}>
        Reminders are part of the committee’s process, so they cannot be turned off. When several
        are due at once, they come as one mail.
      </Typography>
      {reminders.isPending ? (
        <LoadingView label="Loading your reminders…" />
      ) : reminders.isError ? (
        <ErrorList messages={errorMessages(reminders.error)} />
      ) : (
        <>
          {reminders.data.upcoming.length === 0 ? (
            <Typography sx={{ mb: 2 }}>You have no reminders coming.</Typography>
          ) : (
            <SmallTable
              label="Reminders coming"
              headers={['Call', 'What', 'When']}
              rows={reminders.data.upcoming.map((item) => ({
                key: `${item.callId}-${item.audience}-${item.dueAt}`,
                cells: [
                  item.callName,
                  upcomingWhat(item.audience, item.items),
                  formatCallDate(item.dueAt),
                ],
              }))}
            />
          )}
          {reminders.data.sent.length > 0 && (
            <>
              <Typography
                id={`${labelledBy}-sent`}
                variant="subtitle1"
                component="h3"
                sx={{ mt: 2, mb: 1 }}
              >
                Sent lately
              </Typography>
              <SmallTable
                labelledBy={`${labelledBy}-sent`}
                headers={['Call', 'What', 'Sent']}
                rows={reminders.data.sent.map((item, index) => ({
                  key: `${item.callId}-${item.sentAt}-${index}`,
                  cells: [
                    item.callName,
                    `${SENT_WHAT[item.kind]} (${plural(item.items, 'item', 'items')})`,
                    formatCallDate(item.sentAt),
                  ],
                }))}
              />
            </>
          )}
        </>
      )}
    </>
  );
}

interface SmallTableProps {
  label?: string;
  labelledBy?: string;
  headers: readonly string[];
  rows: readonly { key: string; cells: readonly string[] }[];
}

/** A short list: a few rows at most, so no sorting or pages. */
function SmallTable({ label, labelledBy, headers, rows }: SmallTableProps) {
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ mb: 2, maxWidth: 720 }}>
      <Table size="small" aria-label={label} aria-labelledby={labelledBy}>
        <TableHead>
          <TableRow>
            {headers.map((header) => (
              <TableCell key={header}>{header}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key}>
              {row.cells.map((cell, index) => (
                <TableCell key={index}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
