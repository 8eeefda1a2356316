import type { DeadlineImpact } from '@merit/contract';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useId } from 'react';
import { deadlineChangeLines, type DeadlineChange } from './deadline-texts';

interface DeadlineChangeDialogProps {
  change: DeadlineChange;
  /** Who the change reaches; undefined while it is counted. */
  impact: DeadlineImpact | undefined;
  /** Why it could not be counted: the chair may still save. */
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  pending: boolean;
}

/**
 * Asks before a save that moves a call's deadline, saying who it reaches (issue 30): a
 * deadline moved earlier mails the people of the drafts it cuts short, so the chair should
 * know how many before they are mailed. Cancel has the focus; Escape cancels.
 */
export function DeadlineChangeDialog({
  change,
  impact,
  error,
  onConfirm,
  onCancel,
  pending,
}: DeadlineChangeDialogProps) {
  const id = useId();
  return (
    <Dialog open onClose={pending ? undefined : onCancel} aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>Change the deadlines?</DialogTitle>
      <DialogContent>
        {error && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {`Merit could not count who this reaches: ${error}`}
          </Alert>
        )}
        {impact
          ? deadlineChangeLines(change, impact).map((line) => (
              <Typography key={line} sx={{ mb: 1 }}>
                {line}
              </Typography>
            ))
          : !error && <CircularProgress size={24} aria-label="Counting who this reaches" />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending} autoFocus>
          Cancel
        </Button>
        <Button
          onClick={onConfirm}
          variant="contained"
          loading={pending}
          disabled={!impact && !error}
        >
          Save Changes
        </Button>
      </DialogActions>
    </Dialog>
  );
}
