import { COMPLETED_UPLOADS_SHOWN_MS, formatBytes, MAX_UPLOAD_BYTES } from '@merit/domain';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import {
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useEffect, useState, type DragEvent } from 'react';
import { FileChooserButton } from './FileChooserButton';
import { UploadProgress } from './UploadProgress';
import { useUpload } from './use-upload';

/**
 * The upload area of Manage Uploaded Files: a file that answers no form field (a letter,
 * a budget), chosen or dropped, one at a time, with its progress; each finished upload is
 * listed for a moment and then cleared (spec section 9).
 */
export function AttachmentUpload({ proposalId }: { proposalId: number }) {
  const upload = useUpload(`${proposalId}:attachments`, { proposalId });
  const [dragging, setDragging] = useState(false);
  const { finished, take } = upload;
  useEffect(() => {
    if (finished.length === 0) return;
    const timer = window.setTimeout(take, COMPLETED_UPLOADS_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [finished, take]);

  const busy = upload.current !== null;
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !busy) upload.start(file);
  };

  return (
    <Paper
      variant="outlined"
      onDragOver={(event) => {
        // Without this the browser opens a dropped file in place of the app.
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      sx={{
        p: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : undefined,
        bgcolor: dragging ? 'action.hover' : undefined,
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <FileChooserButton disabled={busy} onChoose={upload.start}>
          Upload a file
        </FileChooserButton>
        <Typography variant="body2" color="text.secondary">
          or drop one here. At most {formatBytes(MAX_UPLOAD_BYTES)}, one file at a time.
        </Typography>
      </Stack>
      {upload.current && <UploadProgress {...upload.current} />}
      {finished.length > 0 && (
        <List dense aria-label="Uploaded just now" disablePadding sx={{ mt: 1 }}>
          {finished.map((file) => (
            <ListItem key={file.id} disableGutters>
              <ListItemIcon sx={{ minWidth: 32 }}>
                <CheckCircleIcon color="success" fontSize="small" aria-hidden />
              </ListItemIcon>
              <ListItemText primary={`${file.name} uploaded`} />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
