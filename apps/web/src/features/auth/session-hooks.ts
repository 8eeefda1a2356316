import type { UserDetails } from '@merit/contract';
import type { Actor } from '@merit/domain';
import { useQuery } from '@tanstack/react-query';
import { createContext, use, useSyncExternalStore } from 'react';
import { apiRequest } from '../../api/client';
import { getToken, subscribeToSession } from '../../api/session';
import { keepOnlyDraftsOf } from '../drafts/local-drafts';

/** The current token; re-renders on login, logout and expiry, in any tab. */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToSession, getToken, () => null);
}

export const currentUserKey = ['user_details'] as const;

/**
 * The signed-in user's details, which every signed-in page waits for (RequireSession).
 * Whoever they are, this browser keeps only their unsaved answers from now on: another
 * account's, left by a session that ended on a shared computer, are forgotten.
 */
export const currentUserQuery = {
  queryKey: currentUserKey,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const user = await apiRequest('/user_details/', { schema: (c) => c.userDetails, signal });
    void keepOnlyDraftsOf(user.id);
    return user;
  },
};

/** The signed-in user's details; idle while nobody is signed in. */
export function useCurrentUserQuery() {
  const token = useToken();
  return useQuery({ ...currentUserQuery, enabled: token !== null });
}

export const CurrentUserContext = createContext<UserDetails | null>(null);

/** The signed-in user, inside routes that `RequireSession` guards. */
export function useCurrentUser(): UserDetails {
  const user = use(CurrentUserContext);
  if (!user) throw new Error('useCurrentUser is only available inside <RequireSession>.');
  return user;
}

export function toActor(user: UserDetails): Actor & { mayAdminister: boolean } {
  return {
    id: user.id,
    isAdmin: user.is_admin,
    registrationComplete: user.registration_complete,
    mayAdminister: user.abilities.administer,
  };
}
