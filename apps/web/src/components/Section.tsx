import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A titled part of a page; its `h2` names it for screen readers. `outlined`: a framed
 * panel of its own, as the dashboard's first-run panels are.
 */
export function Section({
  id,
  title,
  actions,
  outlined = false,
  children,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  outlined?: boolean;
  children: ReactNode;
}) {
  const content = (
    <>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 1,
          mb: 1.5,
        }}
      >
        <Typography variant="h6" component="h2" id={id}>
          {title}
        </Typography>
        {actions}
      </Box>
      {children}
    </>
  );
  return outlined ? (
    <Paper
      component="section"
      aria-labelledby={id}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, mb: 4 }}
    >
      {content}
    </Paper>
  ) : (
    <Box component="section" aria-labelledby={id} sx={{ mb: 4 }}>
      {content}
    </Box>
  );
}
