import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { usePageTitle } from './use-page-title';

interface AuthLayoutProps {
  title: string;
  children: ReactNode;
  /** Wider for long forms (registration). */
  wide?: boolean;
}

/** The frame of the pages shown before the app shell: login, registration, reset. */
export function AuthLayout({ title, children, wide = false }: AuthLayoutProps) {
  usePageTitle(title);
  return (
    <Box
      component="main"
      id="main-content"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'flex-start',
        py: { xs: 4, sm: 10 },
        px: 2,
      }}
    >
      <Paper
        variant="outlined"
        sx={{ width: '100%', maxWidth: wide ? 600 : 440, mx: 'auto', p: { xs: 3, sm: 4 } }}
      >
        <Typography
          component="p"
          variant="overline"
          sx={{ color: 'primary.main', fontWeight: 700, fontSize: '1rem', letterSpacing: '0.12em' }}
        >
          Merit
        </Typography>
        <Typography variant="h5" component="h1" sx={{ mb: 3 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
