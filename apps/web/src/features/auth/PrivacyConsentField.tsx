import { checkPrivacyConsent, PRIVACY_CONSENT_LABEL, type FieldErrors } from '@merit/domain';
import { Checkbox, FormControl, FormControlLabel, FormHelperText, Link } from '@mui/material';
import { isApiError } from '../../api/client';
import type { CheckboxProps } from '../../components/form/use-server-form';

interface PrivacyConsentFieldProps extends CheckboxProps {
  /** The operator's privacy notice (GET /auth/methods/). */
  url: string;
  /** What the rules or the server said of the consent, once the user tried to submit. */
  error: string | undefined;
}

/**
 * The consent to the operator's privacy notice (ASVS V8.3.3), asked for by the register
 * and complete-registration pages when the installation sets one. The link is outside the
 * label, so following it does not tick the box; it opens in a new tab so what the user
 * typed stays.
 */
export function PrivacyConsentField({ url, error, ...checkbox }: PrivacyConsentFieldProps) {
  const helpId = `${checkbox.name}-help`;
  return (
    <FormControl required error={error !== undefined}>
      <Link href={url} target="_blank" rel="noopener" sx={{ alignSelf: 'flex-start' }}>
        Read the privacy notice (opens in a new tab)
      </Link>
      <FormControlLabel
        control={
          <Checkbox
            {...checkbox}
            required
            slotProps={{ input: { 'aria-describedby': error ? helpId : undefined } }}
          />
        }
        label={PRIVACY_CONSENT_LABEL}
      />
      {error && <FormHelperText id={helpId}>{error}</FormHelperText>}
    </FormControl>
  );
}

/** The notice's address when it is one a link may open (the server checks it is http or https). */
export function privacyNoticeLink(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

/** Adds the consent's rule to a form's rules, when the installation sets a notice. */
export function withPrivacyConsent<V>(
  validate: (values: V) => FieldErrors,
  noticeUrl: string | undefined,
): (values: V & { privacy_consent: boolean }) => FieldErrors {
  return (values) => {
    const errors = validate(values);
    const consent = checkPrivacyConsent(noticeUrl !== undefined, values.privacy_consent);
    return consent.length > 0 ? { ...errors, privacy_consent: consent } : errors;
  };
}

/**
 * The request body: the consent only when a notice is set, so an installation without one
 * sends exactly the spec's fields.
 */
export function withConsentField<V extends { privacy_consent: boolean }>(
  { privacy_consent, ...rest }: V,
  noticeUrl: string | undefined,
): Omit<V, 'privacy_consent'> & { privacy_consent?: boolean } {
  return noticeUrl === undefined ? rest : { ...rest, privacy_consent };
}

/** The consent's message from a failed submit (the form's own rules or the server's). */
export function consentError(error: unknown): string | undefined {
  return isApiError(error) ? error.body.fields?.privacy_consent?.[0] : undefined;
}
