import type { PasswordChangeRequest } from '@merit/contract';
import { apiRequest } from '../../api/client';

export function changePassword(body: PasswordChangeRequest) {
  return apiRequest('/auth/password/change/', {
    method: 'POST',
    body,
    schema: (c) => c.detailResponse,
  });
}
