import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';

export const setupKeys = {
  // Under `admin`, so that every admin change that refreshes admin data refreshes it too.
  status: ['admin', 'setup'] as const,
  invitation: (committeeId: number) => ['invitation-link', committeeId] as const,
  invited: (token: string) => ['invitation', token] as const,
};

/**
 * The counts the admin's first-run checklist ticks by. Read afresh each time the dashboard
 * shows: the admin comes back to it from the screen where they just did a step.
 */
export function useSetupStatus(enabled: boolean) {
  return useQuery({
    queryKey: setupKeys.status,
    queryFn: ({ signal }) => apiRequest('/admin/setup/', { schema: (c) => c.setupStatus, signal }),
    enabled,
    staleTime: 0,
  });
}

/** A committee's invitation link token, for its chairs and admins. */
export function useInvitationLink(committeeId: number | null) {
  return useQuery({
    queryKey: setupKeys.invitation(committeeId ?? 0),
    queryFn: ({ signal }) =>
      apiRequest(`/committees/${committeeId}/invitation/`, {
        schema: (c) => c.invitationLink,
        signal,
      }),
    enabled: committeeId !== null,
    staleTime: Infinity,
  });
}

/** The address a new member opens: registration, naming the committee that invited them. */
export function invitationUrl(token: string, origin = window.location.origin): string {
  return `${origin}/auth/register?invite=${encodeURIComponent(token)}`;
}
