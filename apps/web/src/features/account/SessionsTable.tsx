import type { SessionInfo } from '@merit/contract';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorMessages } from '../../api/client';
import { endSession as forgetSession } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { useConfirm } from '../../components/use-confirm';
import { formatCallDate } from '../calls/call-dates';
import { endOtherSessions, endSession, fetchSessions, sessionsKey } from './sessions.api';

const METHOD_LABELS: Record<NonNullable<SessionInfo['method']>, string> = {
  password: 'Username and password',
  password_totp: 'Password + two-step',
  password_webauthn: 'Password + security key',
  federated: 'Institutional login',
};

const describe = (session: SessionInfo) =>
  `${session.client}, signed in ${formatCallDate(session.createdAt)}`;

const COLUMNS: readonly Column<SessionInfo>[] = [
  {
    key: 'client',
    header: 'Device',
    cell: (session) => (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <span>{session.client}</span>
        {session.current && <Chip size="small" color="primary" label="This device" />}
      </Stack>
    ),
    sort: (session) => session.client,
  },
  {
    key: 'method',
    header: 'Signed in with',
    cell: (session) => (session.method ? METHOD_LABELS[session.method] : '—'),
    sort: (session) => (session.method ? METHOD_LABELS[session.method] : ''),
  },
  {
    key: 'created',
    header: 'Signed in',
    cell: (session) => formatCallDate(session.createdAt),
    sort: (session) => new Date(session.createdAt),
  },
  {
    key: 'used',
    header: 'Last active',
    cell: (session) => formatCallDate(session.lastUsedAt),
    sort: (session) => new Date(session.lastUsedAt),
  },
];

/**
 * The user's active sessions (ASVS V3.3.4): one per login that has not ended, this
 * device marked. Ending one stops its token at once; the device holding it is sent to
 * the login page at its next request. Ending this device's session is a logout.
 */
export function SessionsTable({ labelledBy }: { labelledBy: string }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const sessions = useQuery({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => fetchSessions(signal),
  });
  const confirmEnd = useConfirm<SessionInfo>();
  const confirmOthers = useConfirm<true>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsKey });

  const ending = useMutation({
    mutationFn: (session: SessionInfo) => endSession(session.id),
    onSuccess: async (_result, session) => {
      if (session.current) {
        confirmEnd.close();
        forgetSession('logout');
        await navigate('/auth/login', { replace: true });
        notify('Logged out.');
        return;
      }
      notify(`Ended the session on ${session.client}.`);
    },
    // A refusal refetches too: a 404 means that session had already ended.
    onSettled: async (_result, error, session) => {
      if (session.current && !error) return;
      await refresh();
      confirmEnd.close();
    },
  });
  const endingOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: ({ ended }) =>
      notify(ended === 1 ? 'Signed out 1 other session.' : `Signed out ${ended} other sessions.`),
    onSettled: async () => {
      await refresh();
      confirmOthers.close();
    },
  });

  const endColumn: Column<SessionInfo> = {
    key: 'end',
    header: 'End',
    action: true,
    cell: (session) => (
      <Button
        size="small"
        color="error"
        aria-label={`End session: ${describe(session)}${session.current ? ' (this device)' : ''}`}
        onClick={() => {
          ending.reset();
          confirmEnd.ask(session);
        }}
      >
        End
      </Button>
    ),
  };
  const columns = [...COLUMNS, endColumn];
  const table = useTableState(columns, {
    defaultSort: { key: 'used', direction: 'desc' },
    prefix: 'sessions',
  });

  if (sessions.isPending) return <Typography>Loading your sessions…</Typography>;
  if (sessions.isError) return <ErrorList messages={errorMessages(sessions.error)} />;
  const rows = sessions.data;
  const others = rows.filter((session) => !session.current).length;
  const subject = confirmEnd.subject;

  return (
    <>
      <ErrorList
        messages={[
          ...(ending.isError ? errorMessages(ending.error) : []),
          ...(endingOthers.isError ? errorMessages(endingOthers.error) : []),
        ]}
      />
      <Typography sx={{ mb: 2, maxWidth: 720 }}>
        {others === 0
          ? 'This device is the only place you are signed in.'
          : 'You are signed in on these devices. End a session you do not recognise, or one on a device you no longer use.'}
      </Typography>
      {rows.length > 0 && (
        <DataTable
          labelledBy={labelledBy}
          columns={columns}
          state={table}
          rows={rows}
          rowKey={(session) => session.id}
        />
      )}
      {others > 0 && (
        <Box sx={{ mt: 2 }}>
          <Button
            variant="outlined"
            color="error"
            onClick={() => {
              endingOthers.reset();
              confirmOthers.ask(true);
            }}
          >
            Sign out other sessions
          </Button>
        </Box>
      )}
      <ConfirmDialog
        open={confirmEnd.open}
        title={subject?.current ? 'End this session and log out?' : 'End this session?'}
        confirmLabel="End session"
        onConfirm={() => subject !== null && ending.mutate(subject)}
        onCancel={confirmEnd.close}
        pending={ending.isPending}
      >
        {subject === null
          ? ''
          : subject.current
            ? 'This is the session on this device: ending it logs you out here.'
            : `${describe(subject)}: that device is signed out and has to log in again.`}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmOthers.open}
        title="Sign out other sessions?"
        confirmLabel="Sign out others"
        onConfirm={() => endingOthers.mutate()}
        onCancel={confirmOthers.close}
        pending={endingOthers.isPending}
      >
        {`Every other device signed in to your account (${others === 1 ? '1 session' : `${others} sessions`}) is signed out and has to log in again. This device stays signed in.`}
      </ConfirmDialog>
    </>
  );
}
