import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessages } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/notifications/notification-context';
import { renewUserHash } from './account.api';

interface CollaboratorHashProps {
  hash: string;
  /** After a renewal, with the new hash. */
  onRenewed: (hash: string) => void;
}

/**
 * The collaborator hash (spec section 3): authors type it to add this user to a
 * proposal. Renewing it stops anyone who has the old one from using it.
 */
export function CollaboratorHash({ hash, onRenewed }: CollaboratorHashProps) {
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const renewal = useMutation({
    mutationFn: renewUserHash,
    onSuccess: ({ hash: renewed }) => {
      setConfirming(false);
      onRenewed(renewed);
      notify('Your collaborator hash has been renewed.');
    },
    onError: (error) => {
      setConfirming(false);
      notify(errorMessages(error).join(' '), 'error');
    },
  });

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(hash);
      notify('Collaborator hash copied to the clipboard.');
    } catch {
      // No clipboard access (an insecure origin, or the browser refused it).
      notify('The hash could not be copied. Select it and copy it yourself.', 'error');
    }
  };

  return (
    <>
      <Typography sx={{ mb: 2, maxWidth: 720 }}>
        Give this hash to an author who wants to add you to a proposal as a collaborator.
      </Typography>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
        <Box
          component="code"
          aria-label="Your collaborator hash"
          sx={{
            fontFamily: 'monospace',
            fontSize: '1.25rem',
            letterSpacing: '0.1em',
            px: 1.5,
            py: 0.5,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: 'background.paper',
            userSelect: 'all',
          }}
        >
          {hash}
        </Box>
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
          Renew
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title="Renew your collaborator hash?"
        confirmLabel="Renew hash"
        onConfirm={() => renewal.mutate()}
        onCancel={() => setConfirming(false)}
        pending={renewal.isPending}
      >
        You will get a new hash. People who have your old hash can no longer use it to add you to a
        proposal.
      </ConfirmDialog>
    </>
  );
}
