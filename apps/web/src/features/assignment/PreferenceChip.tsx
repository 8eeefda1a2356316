import { PREFERENCE_LABELS, type Preference } from '@merit/domain';
import { Chip } from '@mui/material';

/** Colours whose white text meets WCAG AA (MUI's info blue does not, so Willing is primary). */
const COLORS: Record<Preference, 'success' | 'primary' | 'default' | 'warning' | 'error'> = {
  eager: 'success',
  willing: 'primary',
  neutral: 'default',
  reluctant: 'warning',
  not_me: 'error',
};

/** A member's bid, in words and the colour of how welcome the work is. */
export function PreferenceChip({ preference }: { preference: Preference }) {
  return (
    <Chip
      size="small"
      variant={preference === 'neutral' ? 'outlined' : 'filled'}
      color={COLORS[preference]}
      label={PREFERENCE_LABELS[preference]}
    />
  );
}
