import { MAX_LENGTHS, validateCommittee } from '@merit/domain';
import { Box, Button, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { PageHeading } from '../../components/PageHeading';
import { committeeKeys, createCommittee } from '../../features/committees/committees.api';

/** /committees/new (admin only). */
export default function NewCommitteePage() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const form = useServerForm({
    initialValues: { name: '' },
    labels: { name: 'Name' },
    validate: validateCommittee,
    submit: (values: { name: string }) => createCommittee(values.name.trim()),
    onSuccess: (committee) => {
      void queryClient.invalidateQueries({ queryKey: committeeKeys.list });
      notify(`The committee ${committee.name} has been added.`);
      void navigate(`/committees/${committee.id}/`);
    },
  });

  return (
    <>
      <BackLink to="/committees">All committees</BackLink>
      <PageHeading>New Committee</PageHeading>
      <Box component="form" noValidate onSubmit={form.onSubmit} sx={{ maxWidth: 560 }}>
        <ErrorList messages={form.errors} />
        <Stack spacing={3}>
          <TextInput {...form.field('name')} required maxLength={MAX_LENGTHS.committeeName} />
          <Stack direction="row" spacing={2}>
            <Button type="submit" variant="contained" loading={form.isPending}>
              Add Committee
            </Button>
            <Button component={RouterLink} to="/committees">
              Cancel
            </Button>
          </Stack>
        </Stack>
      </Box>
    </>
  );
}
