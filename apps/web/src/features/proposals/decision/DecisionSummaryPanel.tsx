import type { ProposalDetail } from '@merit/contract';
import { Box, Button, Paper, Skeleton, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { errorMessages, isApiError } from '../../../api/client';
import { ErrorList } from '../../../components/ErrorList';
import { useNotify } from '../../../components/notifications/notification-context';
import { RichTextView } from '../../calls/RichTextView';
import { proposalKeys, saveDecisionSummary } from '../proposals.api';

const RichTextEditor = lazy(() => import('../../calls/RichTextEditor'));

export const DECISION_EMPTY = 'No decision summary has been written yet.';
export const DECISION_SAVED = 'The decision summary has been saved.';

/**
 * The Decision Summary panel (spec section 2, Proposal editor): chairs of the call's
 * committee (`abilities.editDecision`) write it in the rich-text editor and Save; those
 * who may read it (`abilities.viewDecision`: its authors once the call is closed) read
 * it. The server decides both: for anyone else `decisionSummary` is absent and the panel
 * is not shown.
 */
export function DecisionSummaryPanel({ proposal }: { proposal: ProposalDetail }) {
  const { abilities } = proposal;
  const headingId = useId();
  if (
    !abilities.editDecision &&
    (!abilities.viewDecision || proposal.decisionSummary === undefined)
  )
    return null;
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
        Decision Summary
      </Typography>
      {abilities.editDecision ? (
        <DecisionEditor proposal={proposal} />
      ) : proposal.decisionSummary ? (
        <RichTextView html={proposal.decisionSummary} />
      ) : (
        <Typography color="text.secondary">{DECISION_EMPTY}</Typography>
      )}
    </Paper>
  );
}

function DecisionEditor({ proposal }: { proposal: ProposalDetail }) {
  const [summary, setSummary] = useState(proposal.decisionSummary ?? '');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const save = useMutation({
    mutationFn: () => saveDecisionSummary(proposal.id, summary),
    onSuccess: (saved) => {
      // Only the summary: the editor's answers stay as they are.
      queryClient.setQueryData<ProposalDetail>(proposalKeys.detail(proposal.id), (old) =>
        old ? { ...old, decisionSummary: saved.decisionSummary } : old,
      );
      notify(DECISION_SAVED);
    },
  });
  // The field's own message (an image over 500 KB) goes under the editor; the rest above.
  const fieldMessages = isApiError(save.error) ? (save.error.body.fields?.summary ?? []) : [];
  const otherMessages = save.isError
    ? errorMessages(save.error).filter((message) => !fieldMessages.includes(message))
    : [];
  return (
    <Box>
      {!proposal.decisionSummary && (
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {DECISION_EMPTY}
        </Typography>
      )}
      <ErrorList messages={fieldMessages.length > 0 ? [] : otherMessages} />
      <Suspense
        fallback={<Skeleton variant="rounded" height={260} aria-label="Loading the editor…" />}
      >
        <RichTextEditor
          label="Decision summary"
          value={summary}
          onChange={(html) => {
            setSummary(html);
            save.reset();
          }}
          error={fieldMessages.length > 0 ? fieldMessages.join(' ') : undefined}
        />
      </Suspense>
      <Button
        variant="contained"
        sx={{ mt: 1 }}
        loading={save.isPending}
        onClick={() => save.mutate()}
      >
        Save
      </Button>
    </Box>
  );
}
