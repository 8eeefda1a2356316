import type { Committee, FormName, UserSummary } from '@merit/contract';
import { makeUser } from './fixtures';

/** The signed-in admin of the admin screens' tests. */
export const adminUser = makeUser({ id: 1, username: 'root', is_admin: true });

export function makeUserSummary(overrides: Partial<UserSummary> = {}): UserSummary {
  return {
    id: 7,
    username: 'ada',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.org',
    institution: 'Analytical Engines',
    is_aaf: false,
    is_admin: false,
    is_active: true,
    ...overrides,
  };
}

export function makeCommittee(overrides: Partial<Committee> = {}): Committee {
  return { id: 3, name: 'Telescope Time', canDelete: true, ...overrides };
}

export function makeFormName(overrides: Partial<FormName> = {}): FormName {
  return {
    id: 11,
    name: 'review_scores',
    display_name: 'Review Scores',
    type: 3,
    isUsed: false,
    ...overrides,
  };
}
