import type { LoginRequest } from '@merit/contract';
import { apiRequest } from '../../api/client';

export function login(body: LoginRequest) {
  return apiRequest('/auth/login/', { method: 'POST', body, schema: (c) => c.loginResponse });
}

export function logout() {
  return apiRequest('/auth/logout/', { method: 'POST', schema: (c) => c.detailResponse });
}
