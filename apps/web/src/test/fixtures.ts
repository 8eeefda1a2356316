import type { UserDetails } from '@merit/contract';

export function makeUser(overrides: Partial<UserDetails> = {}): UserDetails {
  return {
    id: 7,
    username: 'ada',
    email: 'ada@example.org',
    first_name: 'Ada',
    last_name: 'Lovelace',
    institution: 'Analytical Engines',
    gender: 'FEMALE',
    phone_number: '+61 2 1234 5678',
    is_student: false,
    is_admin: false,
    registration_complete: true,
    is_aaf: false,
    hash: 'Xk7pQ2mNa9',
    pending_email: null,
    has_federated_login: false,
    roles: [],
    ...overrides,
  };
}
