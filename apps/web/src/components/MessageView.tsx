import { Box, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { usePageTitle } from './use-page-title';

interface MessageViewProps {
  title: string;
  message: string;
  /** Links or buttons that lead the user on. */
  actions?: ReactNode;
  /** Standalone views (outside the app shell) provide their own `main` landmark. */
  standalone?: boolean;
}

/** A full-page message: not found, access denied, something went wrong. */
export function MessageView({ title, message, actions, standalone = false }: MessageViewProps) {
  usePageTitle(title);
  const content = (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, maxWidth: 560, mx: 'auto' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {title}
      </Typography>
      <Typography sx={{ mb: actions ? 3 : 0 }}>{message}</Typography>
      {actions && (
        <Stack direction="row" spacing={2}>
          {actions}
        </Stack>
      )}
    </Paper>
  );
  if (!standalone) return <Box sx={{ py: 4 }}>{content}</Box>;
  return (
    <Box component="main" id="main-content" tabIndex={-1} sx={{ py: { xs: 4, sm: 8 }, px: 2 }}>
      {content}
    </Box>
  );
}
