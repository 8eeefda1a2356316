import { editingMessages } from '@merit/domain';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';

/** One thing that differs: a field (or form), the person's value and the saved one. */
export interface ConflictRow {
  label: string;
  mine: string;
  theirs: string;
}

/** One piece of work someone else saved first, and what the person may do about it. */
export interface Conflict {
  /** Tells the conflicts apart (a React key). */
  id: string;
  /** Who saved it and when, in the editor's words. */
  message: string;
  /** What differs between the person's work and the saved one; may be empty. */
  rows: readonly ConflictRow[];
  /** What Copy mine puts on the clipboard: text, and HTML for rich text. */
  copy: { text: string; html?: string };
  /** Save the person's work over the saved one (with the saved version). */
  onKeepMine: () => void;
  /** Replace the person's work with the saved one; `copied` after Copy mine. */
  onTakeTheirs: (how: { copied: boolean }) => void;
}

interface ConflictChoiceDialogProps {
  open: boolean;
  conflicts: readonly Conflict[];
  title?: string;
  /** What the three choices do. */
  help?: string;
  /** Said when the clipboard refuses Copy mine: the person's work then stays. */
  copyFailed?: string;
  /** A choice is being carried out (Keep mine is saving): the choices wait for it. */
  pending?: boolean;
}

async function copyToClipboard({ text, html }: Conflict['copy']): Promise<void> {
  if (html !== undefined && typeof ClipboardItem !== 'undefined' && navigator.clipboard.write) {
    await navigator.clipboard.write([
      new ClipboardItem({
        'text/plain': new Blob([text], { type: 'text/plain' }),
        'text/html': new Blob([html], { type: 'text/html' }),
      }),
    ]);
    return;
  }
  await navigator.clipboard.writeText(text);
}

/**
 * The choice an editor offers when its save was refused as stale (someone, or the same
 * person in another tab, saved first) or a restored draft started from an older version:
 * for each conflict, what differs, and Keep mine, Take theirs or Copy mine (to the
 * clipboard, then take theirs). Nothing is resolved in silence: the dialog cannot be
 * dismissed, only answered; the editor closes it once every conflict has its answer.
 */
export function ConflictChoiceDialog({
  open,
  conflicts,
  title = editingMessages.conflictTitle,
  help = editingMessages.conflictHelp,
  copyFailed = editingMessages.copyFailed,
  pending = false,
}: ConflictChoiceDialogProps) {
  const id = useId();
  return (
    <Dialog open={open} maxWidth="md" fullWidth aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{help}</DialogContentText>
        <Stack spacing={3}>
          {conflicts.map((conflict) => (
            <ConflictChoice
              key={conflict.id}
              conflict={conflict}
              copyFailed={copyFailed}
              pending={pending}
            />
          ))}
        </Stack>
      </DialogContent>
    </Dialog>
  );
}

function ConflictChoice({
  conflict,
  copyFailed,
  pending,
}: {
  conflict: Conflict;
  copyFailed: string;
  pending: boolean;
}) {
  const id = useId();
  const [copyError, setCopyError] = useState(false);
  const [copying, setCopying] = useState(false);

  async function copyMine() {
    setCopying(true);
    setCopyError(false);
    try {
      await copyToClipboard(conflict.copy);
    } catch {
      // No clipboard access (an insecure origin, or the browser refused it): keep theirs
      // out, so nothing of the person's is lost.
      setCopyError(true);
      return;
    } finally {
      setCopying(false);
    }
    conflict.onTakeTheirs({ copied: true });
  }

  const busy = pending || copying;
  return (
    <Box role="group" aria-labelledby={`${id}-message`}>
      <Typography id={`${id}-message`} sx={{ mb: 1 }}>
        {conflict.message}
      </Typography>
      {conflict.rows.length > 0 && (
        <Table size="small" aria-labelledby={`${id}-message`} sx={{ mb: 1.5 }}>
          <TableHead>
            <TableRow>
              <TableCell component="td" />
              <TableCell>Yours</TableCell>
              <TableCell>Saved</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {conflict.rows.map((row) => (
              <TableRow key={row.label}>
                <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
                  {row.label}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {row.mine}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {row.theirs}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {copyError && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {copyFailed}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        <Button variant="contained" loading={pending} disabled={busy} onClick={conflict.onKeepMine}>
          Keep mine
        </Button>
        <Button
          variant="outlined"
          disabled={busy}
          onClick={() => conflict.onTakeTheirs({ copied: false })}
        >
          Take theirs
        </Button>
        <Button disabled={busy} loading={copying} onClick={() => void copyMine()}>
          Copy mine
        </Button>
      </Stack>
    </Box>
  );
}
