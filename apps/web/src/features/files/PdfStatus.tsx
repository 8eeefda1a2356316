import { CircularProgress, Stack, Typography } from '@mui/material';
import type { PdfInProgress } from './use-proposal-pdf';

const WORDS = {
  making: (name: string) => `Making the PDF of “${name}”…`,
  downloading: (name: string) => `Downloading the PDF of “${name}”…`,
};

/**
 * What Save PDF is doing, in words: a large proposal's PDF takes a while to make. The
 * live region is always there, so a screen reader hears each change of its text.
 */
export function PdfStatus({ progress }: { progress: PdfInProgress | null }) {
  return (
    <div role="status">
      {progress && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{WORDS[progress.phase](progress.proposalName)}</Typography>
        </Stack>
      )}
    </div>
  );
}
