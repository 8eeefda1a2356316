import DownloadIcon from '@mui/icons-material/Download';
import { Button, Link, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { errorMessages } from '../../api/client';
import { useNotify } from '../../components/notifications/notification-context';
import { privacyNoticeLink } from '../auth/PrivacyConsentField';
import { useAuthMethods } from '../auth/use-auth-methods';
import { saveBlob } from '../files/downloads';
import { fetchUserData } from './account.api';

/** The server's name for the file: `merit-data-<username>-<date>.json`. */
function fileNameOf(username: string, exportedAt: string): string {
  return `merit-data-${username.replace(/[^A-Za-z0-9._+@-]/g, '_')}-${exportedAt.slice(0, 10)}.json`;
}

/**
 * "Your data" on the account page (ASVS V8.3.2, V8.3.3): a copy of what Merit holds about
 * the user, as a JSON file, and the installation's privacy notice when it has one.
 */
export function YourData() {
  const notify = useNotify();
  const privacyNotice = privacyNoticeLink(useAuthMethods().data?.privacyNoticeUrl);
  const download = useMutation({
    mutationFn: fetchUserData,
    onSuccess: (data) => {
      const json = JSON.stringify(data, null, 2);
      saveBlob(
        new Blob([json], { type: 'application/json' }),
        fileNameOf(data.profile.username, data.exported_at),
      );
    },
    onError: (error) => notify(errorMessages(error).join(' '), 'error'),
  });

  return (
    <Stack spacing={2} sx={{ maxWidth: 720, alignItems: 'flex-start' }}>
      <Typography>
        Download a copy of what Merit holds about you: your details, committee roles, the proposals
        you wrote or collaborate on with their answers and file names, the reviews you wrote, and
        when you logged in. It does not include other people’s reviews of your proposals.
      </Typography>
      {privacyNotice && (
        <Typography>
          How your data is used is explained in the{' '}
          <Link href={privacyNotice} target="_blank" rel="noopener">
            privacy notice
          </Link>
          .
        </Typography>
      )}
      <Button
        variant="outlined"
        startIcon={<DownloadIcon />}
        onClick={() => download.mutate()}
        loading={download.isPending}
      >
        Download my data
      </Button>
    </Stack>
  );
}
