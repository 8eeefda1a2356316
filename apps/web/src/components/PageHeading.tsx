import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { usePageTitle } from './use-page-title';

/** The page's one `h1`, which also names the browser tab. */
export function PageHeading({ children, actions }: { children: string; actions?: ReactNode }) {
  usePageTitle(children);
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        flexWrap: 'wrap',
        gap: 2,
        mb: 3,
      }}
    >
      <Typography variant="h4" component="h1">
        {children}
      </Typography>
      {actions}
    </Box>
  );
}
