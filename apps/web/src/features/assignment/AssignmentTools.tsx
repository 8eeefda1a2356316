import DownloadIcon from '@mui/icons-material/Download';
import GridOnIcon from '@mui/icons-material/GridOn';
import { Alert, AlertTitle, Box, Button, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { errorMessages, isApiError } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { csvBlob } from '../files/csv';
import { saveBlob } from '../files/downloads';
import { FileChooserButton } from '../files/FileChooserButton';
import { downloadAssignmentsCsv, refreshAssignment, uploadAssignmentsCsv } from './assignment.api';
import { assignmentTexts } from './assignment-texts';

/**
 * The Assignment page's ways out: the matrix, and the assignments as a CSV
 * (`proposal_id,username,action`) to download, change in a spreadsheet and upload again.
 */
export function AssignmentTools({ callId, canUpload }: { callId: number; canUpload: boolean }) {
  const queryClient = useQueryClient();
  const notify = useNotify();

  const download = useMutation({
    mutationFn: () => downloadAssignmentsCsv(callId),
    onSuccess: (csv) =>
      // With the byte order mark, as every CSV Merit gives out; the upload ignores it.
      saveBlob(csvBlob(csv), assignmentTexts.fileName(callId)),
  });
  const upload = useMutation({
    mutationFn: async (file: File) => uploadAssignmentsCsv(callId, await file.text()),
    onSuccess: async ({ assigned, removed }) => {
      notify(assignmentTexts.uploaded(assigned, removed));
      await refreshAssignment(queryClient, callId);
    },
  });

  const lineErrors = isApiError(upload.error, 400) ? byLine(upload.error.body.fields ?? {}) : [];
  return (
    <Box sx={{ mb: 4 }}>
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <Button
          variant="outlined"
          startIcon={<GridOnIcon />}
          component={RouterLink}
          to={`/calls/${callId}/assignment/matrix`}
        >
          Open the matrix
        </Button>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          loading={download.isPending}
          onClick={() => {
            upload.reset();
            download.mutate();
          }}
        >
          Download CSV
        </Button>
        {canUpload && (
          <FileChooserButton
            accept=".csv,text/csv"
            disabled={upload.isPending}
            onChoose={(file) => {
              download.reset();
              upload.mutate(file);
            }}
          >
            Upload CSV
          </FileChooserButton>
        )}
      </Stack>
      <Box sx={{ mt: 2 }}>
        {lineErrors.length > 0 ? (
          <Alert severity="error">
            <AlertTitle>{assignmentTexts.csvErrorsHeading}</AlertTitle>
            <Box component="ul" aria-label="Lines to fix" sx={{ m: 0, pl: 2 }}>
              {lineErrors.map(({ line, message }, index) => (
                <li key={index}>{`${line}: ${message}`}</li>
              ))}
            </Box>
          </Alert>
        ) : (
          <ErrorList
            messages={[
              ...(upload.isError ? errorMessages(upload.error) : []),
              ...(download.isError ? errorMessages(download.error) : []),
            ]}
          />
        )}
      </Box>
    </Box>
  );
}

/**
 * The upload's errors in the file's order: keyed `line <n>` (a field error elsewhere,
 * such as the header's, comes first).
 */
function byLine(fields: Record<string, string[]>): { line: string; message: string }[] {
  const number = (key: string) => Number(/\d+/.exec(key)?.[0] ?? 0);
  return Object.entries(fields)
    .sort(([a], [b]) => number(a) - number(b))
    .flatMap(([key, messages]) =>
      messages.map((message) => ({ line: key.charAt(0).toUpperCase() + key.slice(1), message })),
    );
}
