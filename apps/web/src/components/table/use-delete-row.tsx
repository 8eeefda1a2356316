import { Button, Typography } from '@mui/material';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { errorMessages } from '../../api/client';
import { ConfirmDialog } from '../ConfirmDialog';
import { useNotify } from '../notifications/notification-context';
import { useConfirm } from '../use-confirm';
import type { Column } from './DataTable';

export interface DeleteRowOptions<T> {
  /** The request that deletes the row. */
  remove: (row: T) => Promise<unknown>;
  /** Whether the row can go; otherwise its cell says `In use`. Absent: every row can. */
  canDelete?: (row: T) => boolean;
  /** Names the row in its button's accessible name: `Delete <name>` (or `<verb> <name>`). */
  name: (row: T) => string;
  /** The word on the column, its buttons and the dialog's button, where `Delete` is not it. */
  verb?: string;
  /** The confirmation dialog's title, e.g. `Delete this committee?`. */
  title: string;
  /** What the dialog asks about the row: what goes, and what cannot be undone. */
  message: (row: T) => string;
  /** The notification once the row is gone. */
  done: (row: T) => string;
  /**
   * Refetches what the deletion changes. A refusal refetches too: a 409 (someone gave
   * the committee a role meanwhile) means the list no longer says the truth either.
   */
  refresh: (client: QueryClient) => Promise<unknown>;
}

/**
 * Delete with confirmation for a DataTable: a `Delete` column (the text `In use` where a
 * row cannot go), the dialog that asks first, a notification once it is done, and the
 * server's messages when it refuses. Render `errors` in an ErrorList and `dialog`
 * anywhere on the page.
 */
export function useDeleteRow<T>({
  remove,
  canDelete = () => true,
  name,
  verb = 'Delete',
  title,
  message,
  done,
  refresh,
}: DeleteRowOptions<T>) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const confirm = useConfirm<T>();
  const deletion = useMutation({
    mutationFn: remove,
    onSuccess: (_result, row) => notify(done(row)),
    // The dialog stays (its button spinning) until the list is fresh, so the deleted row
    // does not flash back into view behind it.
    onSettled: async () => {
      await refresh(queryClient);
      confirm.close();
    },
  });

  const column: Column<T> = {
    key: 'delete',
    header: verb,
    action: true,
    cell: (row) =>
      canDelete(row) ? (
        <Button
          size="small"
          color="error"
          aria-label={`${verb} ${name(row)}`}
          onClick={() => {
            deletion.reset();
            confirm.ask(row);
          }}
        >
          {verb}
        </Button>
      ) : (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ px: 1 }}>
          In use
        </Typography>
      ),
  };

  const dialog = (
    <ConfirmDialog
      open={confirm.open}
      title={title}
      confirmLabel={verb}
      onConfirm={() => confirm.subject !== null && deletion.mutate(confirm.subject)}
      onCancel={confirm.close}
      pending={deletion.isPending}
    >
      {confirm.subject === null ? '' : message(confirm.subject)}
    </ConfirmDialog>
  );

  return {
    column,
    dialog,
    /** Why the server refused the last deletion; empty otherwise. */
    errors: deletion.isError ? errorMessages(deletion.error) : [],
  };
}
