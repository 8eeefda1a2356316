import type {
  LoginRequest,
  PasswordResetConfirmRequest,
  RegistrationRequest,
  SecurityKeyLoginOptionsRequest,
  SecurityKeyLoginRequest,
  TwoFactorLoginRequest,
} from '@merit/contract';
import { apiRequest, apiRequestWithGuard } from '../../api/client';

/**
 * The spec's `{ key }`, or, for an account with two-step verification on,
 * `{ twoFactorRequired, ticket, securityKeys }` for the second step.
 */
export function login(body: LoginRequest) {
  return apiRequest('/auth/login/', { method: 'POST', body, schema: (c) => c.loginAnswer });
}

/** The second step of a login: the ticket and a code (or a recovery code); returns the key. */
export function loginTwoFactor(body: TwoFactorLoginRequest) {
  return apiRequest('/auth/login/two-factor/', {
    method: 'POST',
    body,
    schema: (c) => c.loginResponse,
  });
}

/** The second step with a security key, first: what the browser asks the account's keys. */
export function securityKeyLoginOptions(body: SecurityKeyLoginOptionsRequest) {
  return apiRequest('/auth/login/security-key/options/', {
    method: 'POST',
    body,
    schema: (c) => c.securityKeyOptions,
  });
}

/** …then the key's answer to that challenge; returns the key (the token) as a code does. */
export function loginSecurityKey(body: SecurityKeyLoginRequest) {
  return apiRequest('/auth/login/security-key/', {
    method: 'POST',
    body,
    schema: (c) => c.loginResponse,
  });
}

export function logout() {
  return apiRequest('/auth/logout/', { method: 'POST', schema: (c) => c.detailResponse });
}

/** The ways to log in besides a Merit password: federated login when it is configured. */
export interface AuthMethods {
  oidc: { displayName: string; loginUrl: string } | null;
  /** The operator's privacy notice, which registering asks the user to accept; absent when unset. */
  privacyNoticeUrl?: string;
}

function isAuthMethods(payload: unknown): payload is AuthMethods {
  if (typeof payload !== 'object' || payload === null || !('oidc' in payload)) return false;
  const notice = (payload as { privacyNoticeUrl?: unknown }).privacyNoticeUrl;
  if (notice !== undefined && typeof notice !== 'string') return false;
  const { oidc } = payload;
  if (oidc === null) return true;
  if (typeof oidc !== 'object') return false;
  const { displayName, loginUrl } = oidc as Record<string, unknown>;
  return typeof displayName === 'string' && typeof loginUrl === 'string';
}

/**
 * GET /auth/methods/. The login page asks as it opens, so this goes without the
 * contract (which brings zod) to keep the page within its JavaScript budget.
 */
export function fetchAuthMethods(signal?: AbortSignal) {
  return apiRequestWithGuard('/auth/methods/', { guard: isAuthMethods, signal });
}

export function register(body: RegistrationRequest) {
  return apiRequest('/auth/registration/', {
    method: 'POST',
    body,
    schema: (c) => c.detailResponse,
  });
}

export function verifyEmail(key: string) {
  return apiRequest('/auth/registration/verify-email/', {
    method: 'POST',
    body: { key },
    schema: (c) => c.detailResponse,
  });
}

export function resendVerificationEmail(body: { email: string }) {
  return apiRequest('/auth/registration/resend-email/', {
    method: 'POST',
    body,
    schema: (c) => c.detailResponse,
  });
}

export function requestPasswordReset(body: { email: string }) {
  return apiRequest('/auth/password/reset/', {
    method: 'POST',
    body,
    schema: (c) => c.detailResponse,
  });
}

export function confirmPasswordReset(body: PasswordResetConfirmRequest) {
  return apiRequest('/auth/password/reset/confirm/', {
    method: 'POST',
    body,
    schema: (c) => c.detailResponse,
  });
}

/** Trades the one-time code of a federated login for a token (the same answer as login). */
export function exchangeOidcCode(code: string) {
  return apiRequest('/auth/oidc/exchange/', {
    method: 'POST',
    body: { code },
    schema: (c) => c.loginResponse,
  });
}

function isUrlResponse(payload: unknown): payload is { url: string } {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as { url?: unknown }).url === 'string'
  );
}

/** Starts linking a federated login to the signed-in account; returns the provider's URL. */
export function startOidcLink() {
  // The server declares this body beside its route, not in the contract; checked by hand.
  return apiRequestWithGuard('/auth/oidc/link/', { method: 'POST', guard: isUrlResponse });
}
