import { checkText, MAX_LENGTHS, type FieldErrors } from '@merit/domain';
import { Alert, Box, Button, Stack } from '@mui/material';
import { useState } from 'react';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';

const checkEmailAddress = ({ email }: { email: string }): FieldErrors => {
  const problems = checkText(email, { required: true, max: MAX_LENGTHS.email, email: true });
  return problems.length > 0 ? { email: problems } : {};
};

interface EmailRequestFormProps {
  submitLabel: string;
  submit: (body: { email: string }) => Promise<unknown>;
  /** What to say once it is sent: the server answers the same whether or not the address is known. */
  sentMessage: (email: string) => string;
  initialEmail?: string;
}

/** One email field and a button: asking for a reset link or a new verification link. */
export function EmailRequestForm({
  submitLabel,
  submit,
  sentMessage,
  initialEmail = '',
}: EmailRequestFormProps) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useServerForm({
    initialValues: { email: initialEmail },
    labels: { email: 'Email' },
    validate: checkEmailAddress,
    submit: ({ email }) => submit({ email: email.trim() }),
    onSuccess: (_result, { email }) => setSentTo(email.trim()),
  });

  if (sentTo !== null) {
    return (
      <Alert severity="success" role="status">
        {sentMessage(sentTo)}
      </Alert>
    );
  }
  return (
    <>
      <ErrorList messages={form.errors} />
      <Box component="form" noValidate onSubmit={form.onSubmit}>
        <Stack spacing={2}>
          <TextInput
            {...form.field('email')}
            type="email"
            autoComplete="email"
            required
            maxLength={MAX_LENGTHS.email}
          />
          <Button type="submit" variant="contained" size="large" loading={form.isPending}>
            {submitLabel}
          </Button>
        </Stack>
      </Box>
    </>
  );
}
