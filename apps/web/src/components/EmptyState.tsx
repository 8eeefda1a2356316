import { Paper, Typography } from '@mui/material';

/** What a list shows before it has anything in it. */
export function EmptyState({ children }: { children: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
      <Typography color="text.secondary">{children}</Typography>
    </Paper>
  );
}
