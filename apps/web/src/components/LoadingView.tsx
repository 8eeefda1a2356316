import { Box, CircularProgress, Typography } from '@mui/material';

/** Shown while a page's code or data loads (spec section 2: "A loading view"). */
interface LoadingViewProps {
  label?: string;
  /** Outside the app shell the view is the page, so it is the `main` landmark. */
  standalone?: boolean;
}

export function LoadingView({ label = 'Loading…', standalone = false }: LoadingViewProps) {
  return (
    <Box
      component={standalone ? 'main' : 'div'}
      role="status"
      aria-live="polite"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 2,
        py: 8,
        px: 2,
      }}
    >
      <CircularProgress aria-label={label} />
      <Typography color="text.secondary">{label}</Typography>
    </Box>
  );
}
