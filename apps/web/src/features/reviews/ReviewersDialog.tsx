import type { CommitteeMember, ProposalDetail, Reviewer } from '@merit/contract';
import { conflictMessages, conflictScreenMessages } from '@merit/domain';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessages } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorList } from '../../components/ErrorList';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { SearchField } from '../../components/SearchField';
import { useConfirm } from '../../components/use-confirm';
import { useCall } from '../calls/calls.api';
import { isOverCap } from '../assignment/assignment.api';
import { OverCapDialog } from '../assignment/OverCapDialog';
import { isConflictRefusal } from '../conflicts/conflicts.api';
import {
  ConflictBadge,
  OverrideReasonDialog,
  useReviewerConflicts,
} from '../conflicts/ReviewerConflicts';
import { assignReviewer, refreshReviews, removeReviewer, useCommitteeMembers } from './reviews.api';

/** A committee member who may be chosen: one row per person, whatever their roles. */
export interface Candidate {
  id: number;
  name: string;
  email: string;
  role: CommitteeMember['role'];
}

/**
 * The members a chair may assign (issue 13): the committee's current, active members,
 * once each (a chair is a member too), but never the proposal's author or collaborators,
 * nor anyone who is a reviewer already. The server checks the same again.
 */
export function reviewerCandidates(
  members: readonly CommitteeMember[],
  proposal: Pick<ProposalDetail, 'authorId' | 'collaboratorIds' | 'reviewers'>,
): Candidate[] {
  const excluded = new Set([
    proposal.authorId,
    ...proposal.collaboratorIds,
    ...(proposal.reviewers ?? []).map((person) => person.id),
  ]);
  const byId = new Map<number, Candidate>();
  for (const member of members) {
    if (!member.is_active || excluded.has(member.userId)) continue;
    const known = byId.get(member.userId);
    // Someone who chairs and is a member counts once, as chair.
    if (!known || member.role === 'CHAIR')
      byId.set(member.userId, {
        id: member.userId,
        name: member.name,
        email: member.email,
        role: member.role,
      });
  }
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

const matches = (candidate: Candidate, search: string) => {
  const words = search.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const text = `${candidate.name} ${candidate.email}`.toLocaleLowerCase();
  return words.every((word) => text.includes(word));
};

/** One try at assigning someone, with what the chair has said so far. */
interface Attempt {
  person: Candidate;
  overrideReason?: string;
  overCap?: boolean;
}

interface ReviewersDialogProps {
  proposal: ProposalDetail;
  open: boolean;
  onClose: () => void;
}

/**
 * Manage Reviewers (spec section 2, Proposal editor; for chairs): the proposal's
 * reviewers, each with Remove after a confirmation (it takes back work they were asked to
 * do), and the committee's other members with a search and Assign. A refusal shows as
 * the red list (spec section 8); each change is confirmed in a notification.
 */
export function ReviewersDialog({ proposal, open, onClose }: ReviewersDialogProps) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [search, setSearch] = useState('');
  const call = useCall(proposal.callId);
  const members = useCommitteeMembers(call.data?.committeeId, open);
  const reviewers = proposal.reviewers ?? [];
  // Members with a conflict of interest with it are shown, marked; a confirmed one is
  // assigned only with the chair's reason (the server refuses it otherwise).
  const conflicts = useReviewerConflicts(proposal, open);
  const override = useConfirm<{ person: Candidate; message: string }>();
  // A member at their cap (issue 27): assigned only once the chair says so.
  const overCap = useConfirm<{ attempt: Attempt; message: string }>();

  const assignment = useMutation({
    mutationFn: ({ person, overrideReason, overCap: insist }: Attempt) =>
      assignReviewer(proposal.id, person.id, { overrideReason, overCap: insist }),
    onSuccess: (person) => {
      notify(`${person.name} is now a reviewer of this proposal.`);
      override.close();
      overCap.close();
    },
    onError: (error, attempt) => {
      // A conflict this dialog did not know of (recorded meanwhile): the reason is asked now.
      if (attempt.overrideReason === undefined && isConflictRefusal(error))
        override.ask({ person: attempt.person, message: error.body.detail });
      // Past the cap: asked with the reason already given, if any, kept for the second try.
      else if (!attempt.overCap && isOverCap(error)) {
        override.close();
        overCap.ask({ attempt, message: error.body.detail });
      } else overCap.close();
    },
    onSettled: () => refreshReviews(queryClient),
  });
  const confirm = useConfirm<Reviewer>();
  const removal = useMutation({
    mutationFn: (person: Reviewer) => removeReviewer(proposal.id, person.id),
    onSuccess: (_result, person) =>
      notify(`${person.name} is no longer a reviewer of this proposal.`),
    onSettled: async () => {
      await refreshReviews(queryClient);
      confirm.close();
    },
  });
  const resetErrors = () => {
    assignment.reset();
    removal.reset();
  };
  const assign = (person: Candidate) => {
    resetErrors();
    const conflict = conflicts.get(person.id);
    if (conflict?.state === 'confirmed')
      override.ask({
        person,
        message: conflictMessages.assignConflicted(person.name, conflict.type),
      });
    else assignment.mutate({ person });
  };

  const candidates = members.data ? reviewerCandidates(members.data, proposal) : [];
  const shown = candidates.filter((candidate) => matches(candidate, search));
  // A refusal for the conflict or the cap is a question to the chair, not an error.
  const assignFailure =
    assignment.error &&
    !isConflictRefusal(assignment.error) &&
    !isOverCap(assignment.error) &&
    !override.open &&
    !overCap.open
      ? assignment.error
      : null;
  const failure = assignFailure ?? removal.error;
  const loadFailure = call.error ?? members.error;

  let candidateList;
  if (loadFailure) candidateList = <ErrorList messages={errorMessages(loadFailure)} />;
  else if (!members.data) candidateList = <LoadingView label="Loading the committee…" />;
  else if (candidates.length === 0)
    candidateList = (
      <Typography sx={{ py: 1 }}>
        Every member of the committee who may review this proposal is a reviewer already.
      </Typography>
    );
  else if (shown.length === 0)
    candidateList = (
      <Typography sx={{ py: 1 }}>{`No member matches “${search.trim()}”.`}</Typography>
    );
  else
    candidateList = (
      <List dense aria-label="Committee members" disablePadding>
        {shown.map((person) => (
          <ListItem
            key={person.id}
            divider
            secondaryAction={
              <Button
                size="small"
                variant="outlined"
                aria-label={`Assign ${person.name}`}
                loading={assignment.isPending && assignment.variables?.person.id === person.id}
                disabled={assignment.isPending}
                onClick={() => assign(person)}
              >
                Assign
              </Button>
            }
          >
            <ListItemText
              primary={
                <>
                  {person.role === 'CHAIR' ? `${person.name} (chair)` : person.name}
                  <ConflictBadge conflict={conflicts.get(person.id)} />
                </>
              }
              secondary={person.email}
            />
          </ListItem>
        ))}
      </List>
    );

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Manage Reviewers</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Reviewers are told by email, with the review deadline. Its authors never learn who reviews
          their proposal.
        </Typography>
        <ErrorList messages={failure ? errorMessages(failure) : []} />
        <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
          Reviewers
        </Typography>
        {reviewers.length === 0 ? (
          <Typography sx={{ py: 1 }}>This proposal has no reviewers yet.</Typography>
        ) : (
          <List dense aria-label="Reviewers" disablePadding>
            {reviewers.map((person) => (
              <ListItem
                key={person.id}
                divider
                secondaryAction={
                  <Button
                    size="small"
                    color="error"
                    aria-label={`Remove ${person.name}`}
                    onClick={() => {
                      resetErrors();
                      confirm.ask(person);
                    }}
                  >
                    Remove
                  </Button>
                }
              >
                <ListItemText
                  primary={
                    <>
                      {person.name}
                      <ConflictBadge conflict={conflicts.get(person.id)} />
                    </>
                  }
                  secondary={
                    person.overrideReason
                      ? conflictScreenMessages.overrideShown(person.overrideReason)
                      : undefined
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
        <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
          Assign a reviewer
        </Typography>
        {candidates.length > 0 && (
          <Box sx={{ mb: 1 }}>
            <SearchField label="Search committee members" value={search} onChange={setSearch} />
          </Box>
        )}
        {candidateList}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
      <OverrideReasonDialog
        open={override.open}
        message={override.subject?.message ?? ''}
        pending={assignment.isPending}
        errors={
          override.open &&
          assignment.error &&
          !isConflictRefusal(assignment.error) &&
          !isOverCap(assignment.error)
            ? errorMessages(assignment.error)
            : []
        }
        onAssign={(overrideReason) =>
          override.subject && assignment.mutate({ person: override.subject.person, overrideReason })
        }
        onCancel={() => {
          override.close();
          assignment.reset();
        }}
      />
      <OverCapDialog
        open={overCap.open}
        message={overCap.subject?.message ?? ''}
        pending={assignment.isPending}
        onAssign={() =>
          overCap.subject && assignment.mutate({ ...overCap.subject.attempt, overCap: true })
        }
        onCancel={() => {
          overCap.close();
          assignment.reset();
        }}
      />
      <ConfirmDialog
        open={confirm.open}
        title="Remove this reviewer?"
        confirmLabel="Remove"
        onConfirm={() => confirm.subject && removal.mutate(confirm.subject)}
        onCancel={confirm.close}
        pending={removal.isPending}
      >
        {confirm.subject
          ? `${confirm.subject.name} will no longer be asked to review this proposal, and is told so by email. A review they have saved is kept.`
          : ''}
      </ConfirmDialog>
    </Dialog>
  );
}
