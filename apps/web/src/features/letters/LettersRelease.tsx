import type { CallDetail, CallLetters, LettersQueued } from '@merit/contract';
import { OUTCOME_LABELS } from '@merit/domain';
import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useTableState } from '../../components/table/use-table-state';
import { useConfirm } from '../../components/use-confirm';
import { formatCallDate } from '../calls/call-dates';
import { letterStateOf, letterStateRank, type LetterRow } from './letter-state';
import { lettersQueued, refreshLetters, releaseDecisions, sendLetters } from './letters.api';
import { LETTER_STATE_LABELS, lettersTexts } from './letters-texts';

interface LettersReleaseProps {
  call: CallDetail;
  letters: CallLetters;
}

/** What a chair is asked to confirm: the release, or one proposal's letter sent (again). */
type Sending = { kind: 'release' } | { kind: 'resend' | 'correct' | 'first'; row: LetterRow };

/**
 * The Release tab: each proposal's letter (those with no outcome first), "Release
 * decisions" once the call is closed, and "Send again" for a failed letter, "Send
 * corrected letter" for an outcome changed since its letter, or "Send letter" for an
 * outcome given after the release, each after a confirmation.
 * The list is asked again every few seconds while a letter is queued (useCallLetters).
 */
export function LettersRelease({ call, letters }: LettersReleaseProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const confirm = useConfirm<Sending>();
  const [result, setResult] = useState<LettersQueued | null>(null);
  const withOutcome = letters.proposals.filter((row) => row.outcome !== null).length;
  const withoutOutcome = letters.proposals.length - withOutcome;

  const send = useMutation({
    mutationFn: (sending: Sending) =>
      sending.kind === 'release'
        ? releaseDecisions(call.id)
        : sendLetters(call.id, [sending.row.proposalId]),
    onSuccess: async (answer, sending) => {
      confirm.close();
      if (sending.kind === 'release') setResult(answer);
      else notify(lettersTexts.sent);
      await refreshLetters(queryClient, call.id);
    },
  });
  const ask = (sending: Sending) => {
    send.reset();
    confirm.ask(sending);
  };

  const columns: Column<LetterRow>[] = [
    {
      key: 'name',
      header: 'Proposal',
      sort: (row) => row.name,
      cell: (row) => (
        <Link component={RouterLink} to={`/calls/${call.id}/proposals/${row.proposalId}/`}>
          {row.name}
        </Link>
      ),
    },
    {
      key: 'outcome',
      header: 'Outcome',
      sort: (row) => (row.outcome ? OUTCOME_LABELS[row.outcome] : null),
      cell: (row) => (row.outcome ? OUTCOME_LABELS[row.outcome] : lettersTexts.noOutcome),
    },
    {
      key: 'letter',
      header: 'Letter',
      sort: letterStateRank,
      cell: (row) => <LetterStateCell row={row} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      action: true,
      cell: (row) => (
        <Stack direction="row" sx={{ gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
          {row.letter?.state === 'failed' && !row.changedSinceLetter && (
            <Button size="small" onClick={() => ask({ kind: 'resend', row })}>
              Send again
            </Button>
          )}
          {row.changedSinceLetter && row.outcome !== null && (
            <Button size="small" onClick={() => ask({ kind: 'correct', row })}>
              Send corrected letter
            </Button>
          )}
          {letters.releasedAt && row.outcome !== null && row.letter === null && (
            <Button size="small" onClick={() => ask({ kind: 'first', row })}>
              Send letter
            </Button>
          )}
        </Stack>
      ),
    },
  ];
  const table = useTableState(columns, {
    defaultSort: { key: 'letter', direction: 'asc' },
    prefix: 'letters',
  });

  if (letters.proposals.length === 0) return <EmptyState>{lettersTexts.noProposals}</EmptyState>;
  const shown = searchRows(letters.proposals, table.q, (row) => [row.name]);
  const sending = confirm.subject;
  const asked = sending && confirmation(sending, withOutcome, withoutOutcome);

  return (
    <>
      {letters.releasedAt ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          {lettersTexts.released(formatCallDate(letters.releasedAt))}
        </Alert>
      ) : !call.closed ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {lettersTexts.notClosed}
        </Alert>
      ) : null}
      {result && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setResult(null)}>
          {lettersTexts.queued(result.queued, result.withoutOutcome)}
        </Alert>
      )}
      <ErrorList messages={send.isError && !confirm.open ? errorMessages(send.error) : []} />
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        sx={{ gap: 2, mb: 1, alignItems: { md: 'center' }, justifyContent: 'space-between' }}
      >
        <SearchField label="Search proposals" value={table.q} onChange={table.setQuery} />
        {call.abilities.releaseDecisions && (
          <Button variant="contained" onClick={() => ask({ kind: 'release' })}>
            Release decisions
          </Button>
        )}
      </Stack>
      {lettersQueued(letters) && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {lettersTexts.polling}
        </Typography>
      )}
      {withOutcome === 0 && !letters.releasedAt && (
        <Typography sx={{ mb: 1 }}>
          {'No proposal has an outcome yet: set outcomes on the '}
          <Link component={RouterLink} to={`/calls/${call.id}/ranking`}>
            Ranking
          </Link>
          {' page first.'}
        </Typography>
      )}
      {shown.length === 0 ? (
        <EmptyState>{`No proposal matches “${table.q.trim()}”.`}</EmptyState>
      ) : (
        <DataTable
          label="Letters"
          columns={columns}
          state={table}
          rows={shown}
          rowKey={(row) => row.proposalId}
        />
      )}
      <ConfirmDialog
        open={confirm.open}
        title={asked?.title ?? ''}
        confirmLabel={asked?.confirm ?? ''}
        pending={send.isPending}
        onCancel={confirm.close}
        onConfirm={() => sending && send.mutate(sending)}
      >
        {asked?.text}
        {send.isError && (
          <Box component="span" sx={{ display: 'block', mt: 2, color: 'error.main' }}>
            {errorMessages(send.error).join(' ')}
          </Box>
        )}
      </ConfirmDialog>
    </>
  );
}

/** A letter's state, with when it was sent, or why it failed. */
function LetterStateCell({ row }: { row: LetterRow }) {
  const state = letterStateOf(row);
  const detail =
    state === 'sent' && row.letter?.sentAt
      ? formatCallDate(row.letter.sentAt)
      : state === 'failed'
        ? row.error
        : null;
  return (
    <Stack>
      <Typography variant="body2" color={state === 'failed' ? 'error' : undefined}>
        {LETTER_STATE_LABELS[state]}
        {row.changedSinceLetter && ' · outcome changed since'}
      </Typography>
      {detail && (
        <Typography variant="caption" color="text.secondary">
          {detail}
        </Typography>
      )}
    </Stack>
  );
}

/** The question before sending: its title, its button and what it does. */
function confirmation(sending: Sending, withOutcome: number, withoutOutcome: number) {
  switch (sending.kind) {
    case 'release':
      return {
        title: lettersTexts.releaseTitle,
        confirm: 'Release decisions',
        text: lettersTexts.releaseText(withOutcome, withoutOutcome),
      };
    case 'correct':
      return {
        title: lettersTexts.correctTitle,
        confirm: 'Send corrected letter',
        text: lettersTexts.correctText(sending.row.name),
      };
    case 'first':
      return {
        title: lettersTexts.firstTitle,
        confirm: 'Send letter',
        text: lettersTexts.firstText(sending.row.name),
      };
    case 'resend':
      return {
        title: lettersTexts.resendTitle,
        confirm: 'Send again',
        text: lettersTexts.resendText(sending.row.name),
      };
  }
}
