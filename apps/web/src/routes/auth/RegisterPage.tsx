import { MAX_LENGTHS, validateRegistration } from '@merit/domain';
import { Box, Button, Link, Stack, Typography } from '@mui/material';
import { useRef } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { AuthLayout } from '../../components/AuthLayout';
import { ErrorList } from '../../components/ErrorList';
import { NewPasswordInput } from '../../components/form/NewPasswordInput';
import { PasswordInput } from '../../components/form/PasswordInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { PASSWORD_HINT, PROFILE_LABELS } from '../../features/account/profile-fields';
import { ProfileFields } from '../../features/account/ProfileFields';
import { register } from '../../features/auth/auth.api';
import { CaptchaWidget, type CaptchaHandle } from '../../features/auth/captcha/CaptchaWidget';
import { InvitationNotice } from '../../features/auth/InvitationNotice';
import {
  consentError,
  PrivacyConsentField,
  privacyNoticeLink,
  withConsentField,
  withPrivacyConsent,
} from '../../features/auth/PrivacyConsentField';
import { useAuthMethods } from '../../features/auth/use-auth-methods';

/** /auth/register (spec section 5, Registration): every field but the student flag is required. */
export default function RegisterPage() {
  const navigate = useNavigate();
  // An invitation link (issue 30) names the committee; registering is the same without it.
  const [searchParams] = useSearchParams();
  const captcha = useRef<CaptchaHandle>(null);
  const privacyNotice = privacyNoticeLink(useAuthMethods().data?.privacyNoticeUrl);
  const form = useServerForm({
    initialValues: {
      username: '',
      email: '',
      first_name: '',
      last_name: '',
      institution: '',
      gender: '',
      phone_number: '',
      password1: '',
      password2: '',
      is_student: false,
      captcha: '',
      privacy_consent: false,
    },
    labels: {
      ...PROFILE_LABELS,
      password1: 'Password',
      password2: 'Confirm password',
      captcha: 'Human check',
      privacy_consent: 'Privacy notice',
    },
    validate: withPrivacyConsent(validateRegistration, privacyNotice),
    // The widget has usually solved its challenge by now; if not, it does so here.
    prepare: async (values) => ({ ...values, captcha: (await captcha.current?.solve()) ?? '' }),
    submit: (values) => register(withConsentField(values, privacyNotice)),
    onSuccess: (_result, values) =>
      void navigate('/auth/register/complete', { state: { email: values.email.trim() } }),
    onError: (error) => {
      // The server may have used up the solution it was sent (it accepts each once).
      if (isApiError(error) && error.status !== 0) captcha.current?.renew();
    },
  });

  return (
    <AuthLayout title="Register" wide>
      <InvitationNotice token={searchParams.get('invite')} />
      <ErrorList messages={form.errors} />
      <Box component="form" noValidate onSubmit={form.onSubmit}>
        <Stack spacing={2}>
          <TextInput
            {...form.field('username')}
            autoComplete="username"
            required
            maxLength={MAX_LENGTHS.username}
          />
          <TextInput
            {...form.field('email')}
            type="email"
            autoComplete="email"
            required
            maxLength={MAX_LENGTHS.email}
          />
          <ProfileFields form={form} gender="gender" names />
          <NewPasswordInput
            {...form.field('password1')}
            helperText={form.field('password1').helperText ?? PASSWORD_HINT}
            owner={{
              username: form.values.username,
              email: form.values.email,
              firstName: form.values.first_name,
              lastName: form.values.last_name,
            }}
            required
            maxLength={MAX_LENGTHS.password}
          />
          <PasswordInput
            {...form.field('password2')}
            autoComplete="new-password"
            required
            maxLength={MAX_LENGTHS.password}
          />
          {privacyNotice && (
            <PrivacyConsentField
              {...form.checkbox('privacy_consent')}
              url={privacyNotice}
              error={consentError(form.error)}
            />
          )}
          <CaptchaWidget ref={captcha} />
          <Button type="submit" variant="contained" size="large" loading={form.isPending}>
            Register
          </Button>
        </Stack>
      </Box>
      <Typography sx={{ mt: 3 }}>
        Already have an account?{' '}
        <Link component={RouterLink} to="/auth/login">
          Log in
        </Link>
      </Typography>
    </AuthLayout>
  );
}
