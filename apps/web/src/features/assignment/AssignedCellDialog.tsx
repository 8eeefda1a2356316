import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useId } from 'react';
import { assignmentTexts } from './assignment-texts';

interface AssignedCellDialogProps {
  open: boolean;
  member: string;
  proposal: string;
  locked: boolean;
  /** Which of the two is on its way to the server. */
  pending: 'remove' | 'lock' | null;
  onRemove: () => void;
  onToggleLock: () => void;
  onCancel: () => void;
}

/**
 * An assigned cell of the matrix, clicked: take the review back (the member is told), or
 * lock it so that Propose never takes it back. Cancel has the focus, as in ConfirmDialog,
 * so a reflexive Enter removes nothing.
 */
export function AssignedCellDialog({
  open,
  member,
  proposal,
  locked,
  pending,
  onRemove,
  onToggleLock,
  onCancel,
}: AssignedCellDialogProps) {
  const id = useId();
  const busy = pending !== null;
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
    >
      <DialogTitle id={`${id}-title`}>
        {assignmentTexts.assignedTitle(member, proposal)}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`}>
          {`${locked ? assignmentTexts.lockedHint : assignmentTexts.unlockedHint} ${assignmentTexts.removeConfirm(member, proposal)}`}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy} autoFocus>
          Cancel
        </Button>
        <Button
          startIcon={locked ? <LockOpenIcon /> : <LockIcon />}
          onClick={onToggleLock}
          disabled={busy}
          loading={pending === 'lock'}
        >
          {locked ? 'Unlock' : 'Lock'}
        </Button>
        <Button
          color="error"
          variant="contained"
          onClick={onRemove}
          disabled={busy}
          loading={pending === 'remove'}
        >
          Remove
        </Button>
      </DialogActions>
    </Dialog>
  );
}
