import { safeNext } from '@merit/domain';

// The same check the server applies to federated logins' `next`.
export { safeNext };

/** The login URL that returns the user to `from` afterwards. */
export function loginPath(from?: string): string {
  const next = safeNext(from);
  if (!next || next === '/') return '/auth/login';
  return `/auth/login?${new URLSearchParams({ next }).toString()}`;
}
