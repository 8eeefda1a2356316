import type {
  TwoFactorConfirmRequest,
  TwoFactorDisableRequest,
  TwoFactorSetupRequest,
} from '@merit/contract';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';

export const twoFactorKey = ['auth', 'two-factor'] as const;

/** Whether two-step verification is on, and how many recovery codes are left. */
export function fetchTwoFactor(signal?: AbortSignal) {
  return apiRequest('/auth/two-factor/', { schema: (c) => c.twoFactorStatus, signal });
}

/** A new key for the authenticator app; needs the current password. */
export function startTwoFactorSetup(body: TwoFactorSetupRequest) {
  return apiRequest('/auth/two-factor/setup/', {
    method: 'POST',
    body,
    schema: (c) => c.twoFactorSetupResponse,
  });
}

/** Turns it on with a code from the app; returns the recovery codes, shown this once. */
export function confirmTwoFactor(body: TwoFactorConfirmRequest) {
  return apiRequest('/auth/two-factor/confirm/', {
    method: 'POST',
    body,
    schema: (c) => c.recoveryCodesResponse,
  });
}

/** Turns it off; needs the password and a code (or a recovery code). */
export function disableTwoFactor(body: TwoFactorDisableRequest) {
  return apiRequest('/auth/two-factor/disable/', { method: 'POST', body, schema: noBody });
}
