import { ConfirmDialog } from '../../components/ConfirmDialog';
import { assignmentTexts } from './assignment-texts';

interface OverCapDialogProps {
  open: boolean;
  /** The server's refusal: who, and their cap. */
  message: string;
  pending: boolean;
  onAssign: () => void;
  onCancel: () => void;
}

/**
 * Asks a chair whether to assign a member past their cap (the server's 409 `over_cap`):
 * a cap guards against overwork, so passing it is the chair's choice, made knowingly.
 */
export function OverCapDialog({ open, message, pending, onAssign, onCancel }: OverCapDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      title="Assign over the cap?"
      confirmLabel="Assign anyway"
      pending={pending}
      onConfirm={onAssign}
      onCancel={onCancel}
    >
      {assignmentTexts.overCapQuestion(message)}
    </ConfirmDialog>
  );
}
