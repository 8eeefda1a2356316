import { describe, expect, it } from 'vitest';
import {
  anonymisedAccount,
  deletionConfirmationOf,
  isDeletedAccountEmail,
} from './account-deletion.js';
import { hasRestrictedCharacters } from './validation/fields.js';

describe('account deletion rules', () => {
  it.each([
    ['a password account', { isAaf: false, hasPassword: true }, 'password'],
    ['a federated-only account', { isAaf: true, hasPassword: false }, 'username'],
    ['an account with no password however made', { isAaf: false, hasPassword: false }, 'username'],
  ] as const)('%s confirms with its %s', (_name, user, expected) => {
    expect(deletionConfirmationOf(user)).toBe(expected);
  });

  it('anonymises to "Deleted user <id>" with a username and address nobody can register', () => {
    const account = anonymisedAccount(42);
    expect(`${account.firstName} ${account.lastName}`).toBe('Deleted user 42');
    expect(hasRestrictedCharacters(account.username)).toBe(true);
    expect(hasRestrictedCharacters(account.email)).toBe(true);
    expect(account).toMatchObject({ passwordHash: null, isActive: false, isAdmin: false });
    expect(isDeletedAccountEmail(account.email)).toBe(true);
    expect(isDeletedAccountEmail('ada@example.org')).toBe(false);
  });
});
