import { validateRegistrationCompletion } from '@merit/domain';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AuthLayout } from '../../components/AuthLayout';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { completeRegistration } from '../../features/account/account.api';
import { PROFILE_LABELS } from '../../features/account/profile-fields';
import { ProfileFields } from '../../features/account/ProfileFields';
import { currentUserKey, useCurrentUser } from '../../features/auth/session-hooks';
import {
  consentError,
  PrivacyConsentField,
  privacyNoticeLink,
  withConsentField,
  withPrivacyConsent,
} from '../../features/auth/PrivacyConsentField';
import { useAuthMethods } from '../../features/auth/use-auth-methods';
import { useLogout } from '../../features/auth/use-logout';

/**
 * /auth/complete_registration (spec section 2): a federated user gives the details their
 * institution did not. Every other page sends them here until they do.
 */
export default function CompleteRegistrationPage() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const { logout, isPending: loggingOut } = useLogout();
  const privacyNotice = privacyNoticeLink(useAuthMethods().data?.privacyNoticeUrl);
  const form = useServerForm({
    // Whatever the institution released is filled in already.
    initialValues: {
      institution: user.institution,
      gender_choice: user.gender ?? '',
      phone_number: user.phone_number,
      is_student: user.is_student,
      privacy_consent: false,
    },
    labels: { ...PROFILE_LABELS, privacy_consent: 'Privacy notice' },
    validate: withPrivacyConsent(validateRegistrationCompletion, privacyNotice),
    submit: (values) => completeRegistration(withConsentField(values, privacyNotice)),
    onSuccess: (details) => {
      queryClient.setQueryData(currentUserKey, details);
      notify('Your registration is complete.');
      void navigate('/', { replace: true });
    },
  });

  return (
    <AuthLayout title="Complete Registration">
      <Typography sx={{ mb: 3 }}>
        Welcome to Merit. Please complete your details before you continue.
      </Typography>
      <ErrorList messages={form.errors} />
      <Box component="form" noValidate onSubmit={form.onSubmit}>
        <Stack spacing={2}>
          <TextInput
            name="email"
            label="Email"
            value={user.email}
            readOnly
            helperText="Your institution provides this address; it cannot be changed here."
          />
          <ProfileFields form={form} gender="gender_choice" />
          {privacyNotice && (
            <PrivacyConsentField
              {...form.checkbox('privacy_consent')}
              url={privacyNotice}
              error={consentError(form.error)}
            />
          )}
          <Button type="submit" variant="contained" size="large" loading={form.isPending}>
            Save and continue
          </Button>
        </Stack>
      </Box>
      <Box sx={{ mt: 3 }}>
        <Button variant="text" onClick={logout} loading={loggingOut}>
          Log out
        </Button>
      </Box>
    </AuthLayout>
  );
}
