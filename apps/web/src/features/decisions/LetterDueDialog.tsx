import { Box } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessages } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/notifications/notification-context';
import { refreshLetters, sendLetters } from '../letters/letters.api';
import { lettersTexts } from '../letters/letters-texts';
import { refreshDecisions } from './decisions.api';

export const letterDueTexts = {
  corrected: (name: string) =>
    `The decision on “${name}” has changed since its letter was written. Merit can write the corrected letter now and send it to its author, with its collaborators in copy; the old letter is kept in the proposal’s history, and its applicants no longer see it. If you choose Not now, the corrected letter stays offered on the Letters page.`,
  first: (name: string) =>
    `“${name}” was given its outcome after the decisions were released, so it has no letter yet. Merit can write its letter now and send it to its author, with its collaborators in copy. If you choose Not now, the letter stays offered on the Letters page.`,
  notNow: 'Not now',
} as const;

interface LetterDueDialogProps {
  open: boolean;
  callId: number;
  proposalId: number;
  /** The proposal's name, as the letter's readers know it. */
  name: string;
  /** Whether a letter went out before: the new one corrects it. */
  corrects: boolean;
  onClose: () => void;
}

/**
 * Asked right after a chair saved an outcome the call's released decisions owe a letter
 * (issue 29, the save's `letterDue`): whether to send it now (POST .../letters/send/, which
 * supersedes a letter sent before), or later from the Letters page, which keeps offering it.
 */
export function LetterDueDialog({
  open,
  callId,
  proposalId,
  name,
  corrects,
  onClose,
}: LetterDueDialogProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const send = useMutation({
    mutationFn: () => sendLetters(callId, [proposalId]),
    onSuccess: async () => {
      onClose();
      notify(lettersTexts.sent);
      // The letter's state shows on the proposal's page and on the Letters page.
      await Promise.all([
        refreshLetters(queryClient, callId),
        refreshDecisions(queryClient, callId, proposalId),
      ]);
    },
  });
  return (
    <ConfirmDialog
      open={open}
      title={corrects ? lettersTexts.correctTitle : lettersTexts.firstTitle}
      confirmLabel={corrects ? 'Send corrected letter' : 'Send letter'}
      cancelLabel={letterDueTexts.notNow}
      pending={send.isPending}
      onCancel={() => {
        send.reset();
        onClose();
      }}
      onConfirm={() => send.mutate()}
    >
      {corrects ? letterDueTexts.corrected(name) : letterDueTexts.first(name)}
      {send.isError && (
        <Box component="span" role="alert" sx={{ display: 'block', mt: 2, color: 'error.main' }}>
          {errorMessages(send.error).join(' ')}
        </Box>
      )}
    </ConfirmDialog>
  );
}
