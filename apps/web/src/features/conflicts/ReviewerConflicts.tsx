import type { ConflictItem, ProposalDetail } from '@merit/contract';
import { CONFLICT_REASON_MAX, CONFLICT_TYPE_LABELS, conflictScreenMessages } from '@merit/domain';
import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material';
import { useId, useState } from 'react';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useProposalConflicts } from './conflicts.api';

/**
 * The conflicts Manage Reviewers warns about, by member: the confirmed ones (which the
 * server enforces) and the suggested ones (for the chair to weigh); not the dismissed.
 * Only for those who may see the proposal's conflicts (its chairs).
 */
export function useReviewerConflicts(
  proposal: Pick<ProposalDetail, 'id' | 'abilities'>,
  open: boolean,
): ReadonlyMap<number, ConflictItem> {
  const query = useProposalConflicts(proposal.id, open && proposal.abilities.viewConflicts);
  const byMember = new Map<number, ConflictItem>();
  if (!query.data?.enabled) return byMember;
  for (const item of query.data.conflicts)
    if (item.state !== 'dismissed') byMember.set(item.userId, item);
  return byMember;
}

/** "Conflict" or "Possible conflict" beside a member's name, with its kind for screen readers. */
export function ConflictBadge({ conflict }: { conflict: ConflictItem | undefined }) {
  if (!conflict) return null;
  const confirmed = conflict.state === 'confirmed';
  return (
    <Chip
      size="small"
      variant="outlined"
      color={confirmed ? 'error' : 'warning'}
      label={confirmed ? 'Conflict' : 'Possible conflict'}
      title={CONFLICT_TYPE_LABELS[conflict.type]}
      sx={{ ml: 1 }}
    />
  );
}

interface OverrideReasonDialogProps {
  open: boolean;
  /** Who is conflicted, and how: the server's words, or the domain's for a known conflict. */
  message: string;
  pending: boolean;
  /** The last attempt's refusal, other than the conflict itself. */
  errors: readonly string[];
  onAssign: (reason: string) => void;
  onCancel: () => void;
}

/**
 * Asks the chair why a member with a conflict of interest should review the proposal all
 * the same, before the assignment is sent with it (`overrideReason`, audited and shown
 * beside the assignment).
 */
export function OverrideReasonDialog({
  open,
  message,
  pending,
  errors,
  onAssign,
  onCancel,
}: OverrideReasonDialogProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onCancel}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="sm"
      slotProps={{ transition: { onExited: () => setReason('') } }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!reason.trim()) return setMissing(true);
          onAssign(reason.trim());
        }}
      >
        <DialogTitle id={`${id}-title`}>Assign despite a conflict?</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>{message}</DialogContentText>
          <DialogContentText sx={{ mb: 2 }}>
            {conflictScreenMessages.overrideHelp}
          </DialogContentText>
          <ErrorList messages={errors} />
          <Stack sx={{ pt: 1 }}>
            <TextInput
              name="overrideReason"
              label="Reason for assigning"
              required
              value={reason}
              maxLength={CONFLICT_REASON_MAX}
              onChange={(event) => {
                setReason(event.target.value);
                setMissing(false);
              }}
              error={missing}
              helperText={missing ? 'Give the reason for assigning them.' : undefined}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={pending} autoFocus>
            Cancel
          </Button>
          <Button type="submit" variant="contained" color="warning" loading={pending}>
            Assign Anyway
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
