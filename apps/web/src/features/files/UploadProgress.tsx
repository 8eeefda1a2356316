import { Box, LinearProgress, Typography } from '@mui/material';

/**
 * The upload under way (spec section 9): a bar and its percentage, in words too, so a
 * screen reader and a glance both tell how far it is.
 */
export function UploadProgress({ name, percent }: { name: string; percent: number }) {
  const label = `Uploading ${name}`;
  return (
    <Box sx={{ my: 1 }}>
      <Typography variant="body2" sx={{ mb: 0.5, overflowWrap: 'anywhere' }}>
        {label}: {percent} %
      </Typography>
      <LinearProgress variant="determinate" value={percent} aria-label={label} />
    </Box>
  );
}
