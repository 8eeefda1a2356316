import { Alert } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, isApiError } from '../../api/client';

/** For a link changed by hand, cut short, or of a deleted committee: all read the same. */
const NOT_VALID =
  'This invitation link is not valid. Ask the person who sent it for a new link, or register without one.';

/**
 * On registration opened from an invitation link (`?invite=`, issue 30): the committee
 * that sent it, so the newcomer knows they are in the right place. The link grants
 * nothing; registering works the same with or without it.
 */
export function InvitationNotice({ token }: { token: string | null }) {
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) =>
      apiRequest(`/invitations/${encodeURIComponent(token ?? '')}`, {
        schema: (c) => c.invitation,
        signal,
      }),
    enabled: Boolean(token),
    staleTime: Infinity,
  });
  if (!token || invitation.isPending) return null;
  if (invitation.isError)
    return (
      <Alert severity="warning" sx={{ mb: 2 }}>
        {isApiError(invitation.error, 404)
          ? NOT_VALID
          : 'The committee of this invitation link could not be read. You can register all the same.'}
      </Alert>
    );
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      {`You are registering to join ${invitation.data.committeeName}. Register and confirm your email as usual; if you are to review for the committee, an administrator then gives you your role.`}
    </Alert>
  );
}
