import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { errorMessages } from '../../api/client';
import { useNotify } from '../../components/notifications/notification-context';
import { downloadProposalFile } from './downloads';

/**
 * Download for one of a proposal's files: asks for a ticket, then lets the browser save
 * what it opens. Named after the file, as a list holds several Download buttons.
 */
export function DownloadFileButton({ file }: { file: { id: number; name: string } }) {
  const notify = useNotify();
  const download = useMutation({
    mutationFn: () => downloadProposalFile(file.id),
    onError: (error) => notify(errorMessages(error).join(' '), 'error'),
  });
  return (
    <Button
      size="small"
      startIcon={<DownloadIcon />}
      loading={download.isPending}
      aria-label={`Download ${file.name}`}
      onClick={() => download.mutate()}
    >
      Download
    </Button>
  );
}
