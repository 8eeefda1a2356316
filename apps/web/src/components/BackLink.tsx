import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/** The way up from a detail page to its list, above the heading. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <Button
      component={RouterLink}
      to={to}
      startIcon={<ArrowBackIcon />}
      size="small"
      sx={{ mb: 1, ml: -1 }}
    >
      {children}
    </Button>
  );
}
