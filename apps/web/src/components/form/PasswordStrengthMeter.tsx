import { passwordStrength, type PasswordOwner, type PasswordScore } from '@merit/domain';
import { LinearProgress, Typography } from '@mui/material';

const COLOURS: Record<PasswordScore, 'error' | 'warning' | 'info' | 'success'> = {
  0: 'error',
  1: 'error',
  2: 'warning',
  3: 'info',
  4: 'success',
};

interface PasswordStrengthMeterProps {
  password: string;
  /** The user's own details, which make a password easy to guess. */
  owner?: PasswordOwner | undefined;
}

/**
 * How strong the new password is, as the user types (OWASP ASVS V2.1.8). It advises and
 * never stops the form: the server's rules decide. Nothing shows for an empty field.
 */
export function PasswordStrengthMeter({ password, owner }: PasswordStrengthMeterProps) {
  const { score, label, hint } = passwordStrength(password, owner);
  return (
    // Polite, and only the words inside: read out when the score or hint changes, not at
    // every key.
    <div aria-live="polite">
      {password !== '' && (
        <>
          <LinearProgress
            variant="determinate"
            // A sliver even at 0, so the bar's colour shows.
            value={score === 0 ? 5 : score * 25}
            color={COLOURS[score]}
            aria-label="Password strength"
            aria-valuetext={label}
            sx={{ mt: 1, height: 6, borderRadius: 3 }}
          />
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            Password strength: <strong>{label}</strong>
            {hint && `. ${hint}`}
          </Typography>
        </>
      )}
    </div>
  );
}
