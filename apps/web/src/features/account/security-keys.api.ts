import type { SecurityKeyAddRequest, SecurityKeyOptionsRequest } from '@merit/contract';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';

export const securityKeysKey = ['auth', 'security-keys'] as const;

/** The signed-in user's security keys, the oldest first. */
export function fetchSecurityKeys(signal?: AbortSignal) {
  return apiRequest('/auth/security-keys/', { schema: (c) => c.securityKeyList, signal });
}

/** What the browser asks a new key for, with a fresh challenge; needs the current password. */
export function securityKeyOptions(body: SecurityKeyOptionsRequest) {
  return apiRequest('/auth/security-keys/options/', {
    method: 'POST',
    body,
    schema: (c) => c.securityKeyOptions,
  });
}

/** Adds the key that answered the options' challenge. */
export function addSecurityKey(body: SecurityKeyAddRequest) {
  return apiRequest('/auth/security-keys/', {
    method: 'POST',
    body,
    schema: (c) => c.securityKey,
  });
}

export function removeSecurityKey(id: number) {
  return apiRequest(`/auth/security-keys/${id}/`, { method: 'DELETE', schema: noBody });
}
