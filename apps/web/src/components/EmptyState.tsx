import { Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** What a list shows before it has anything in it; a link may say where to add something. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
      <Typography color="text.secondary">{children}</Typography>
    </Paper>
  );
}
