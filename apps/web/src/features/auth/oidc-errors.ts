/** Why a federated login came back to /auth/oidc/error (apps/server oidc.routes.ts). */
export const OIDC_ERROR_MESSAGES: Record<string, string> = {
  state:
    'This login attempt has expired or was already completed. Start again from the login page.',
  provider:
    "Your institution's login service did not complete the login, for example because it was " +
    'cancelled. Try again, or log in with your username and password.',
  token:
    "The answer from your institution's login service could not be verified. Try again; if it " +
    'keeps happening, contact the Merit administrators.',
  claims:
    "Your institution's login service did not share your email address, which Merit needs to " +
    'create your account. Contact your institution about releasing it, or register with a ' +
    'username and password.',
  'email-in-use':
    'A Merit account already uses this email address. Log in with your username and password, ' +
    "then link your institution's login from My Account.",
  'identity-in-use':
    'This institutional login is already linked to another Merit account. Log in to that ' +
    'account instead, or contact the Merit administrators.',
  inactive: 'This account has been deactivated. Contact the Merit administrators for help.',
};

export const OIDC_ERROR_FALLBACK =
  'The login through your institution did not succeed. Try again, or log in with your ' +
  'username and password.';

export function oidcErrorMessage(reason: string | null): string {
  return (
    (reason && Object.hasOwn(OIDC_ERROR_MESSAGES, reason) && OIDC_ERROR_MESSAGES[reason]) ||
    OIDC_ERROR_FALLBACK
  );
}
