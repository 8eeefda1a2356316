import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A titled part of a page; its `h2` names it for screen readers. */
export function Section({
  id,
  title,
  actions,
  children,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ mb: 4 }}>
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
    </Box>
  );
}
