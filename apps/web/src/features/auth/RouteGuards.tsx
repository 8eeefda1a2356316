import { accessToArea } from '@merit/domain';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { errorMessages, isApiError } from '../../api/client';
import { getLastEndReason } from '../../api/session';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { ErrorView } from '../../components/ErrorView';
import { LoadingView } from '../../components/LoadingView';
import { AdminTwoFactorView } from './AdminTwoFactorView';
import { loginPath, safeNext } from './safe-next';
import {
  CurrentUserContext,
  toActor,
  useCurrentUser,
  useCurrentUserQuery,
  useToken,
} from './session-hooks';

export const COMPLETE_REGISTRATION_PATH = '/auth/complete_registration';

interface GuardProps {
  /** Defaults to the child routes. */
  children?: ReactNode;
}

/**
 * Lets only a signed-in user through, once their details have loaded, and provides
 * them to `useCurrentUser()`. Anyone else goes to login, which brings them back here.
 */
export function RequireSession({ children }: GuardProps) {
  const token = useToken();
  const location = useLocation();
  const user = useCurrentUserQuery();

  if (token === null) {
    // After a deliberate logout the user starts afresh rather than being sent back.
    const from = getLastEndReason() === 'logout' ? undefined : location.pathname + location.search;
    return <Navigate to={loginPath(from)} replace />;
  }
  if (user.data) {
    return <CurrentUserContext value={user.data}>{children ?? <Outlet />}</CurrentUserContext>;
  }
  // A 401 ends the session (see query-client.ts); the next render redirects to login.
  if (user.isError && !isApiError(user.error, 401)) {
    return (
      <ErrorView
        standalone
        detail={errorMessages(user.error).join(' ')}
        onRetry={() => void user.refetch()}
      />
    );
  }
  return <LoadingView standalone />;
}

/**
 * Spec section 2, access rules: an incomplete registration must be completed first;
 * admin areas show an access-denied view to everyone else, and the way to two-step
 * verification to an admin who must turn it on first (ADMIN_TWO_FACTOR=required).
 */
export function RequireArea({ area, children }: GuardProps & { area: 'member' | 'admin' }) {
  const user = useCurrentUser();
  const access = accessToArea(toActor(user), area);
  if (access === 'complete-registration')
    return <Navigate to={COMPLETE_REGISTRATION_PATH} replace />;
  if (access === 'denied') return <AccessDeniedView />;
  if (access === 'needs-two-factor') return <AdminTwoFactorView />;
  return children ?? <Outlet />;
}

/** The complete-registration page is only for users whose registration is incomplete. */
export function RequireIncompleteRegistration({ children }: GuardProps) {
  const user = useCurrentUser();
  if (user.registration_complete) return <Navigate to="/" replace />;
  return children ?? <Outlet />;
}

/** Login is for visitors: a signed-in user goes on to `next` (or the dashboard). */
export function RedirectIfSignedIn({ children }: GuardProps) {
  const token = useToken();
  const user = useCurrentUserQuery();
  const [params] = useSearchParams();

  if (token !== null) {
    if (user.data) return <Navigate to={safeNext(params.get('next')) ?? '/'} replace />;
    // If the details cannot be loaded, the form stays usable to log in again.
    if (!user.isError) return <LoadingView standalone />;
  }
  return children ?? <Outlet />;
}
