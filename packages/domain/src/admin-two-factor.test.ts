import { describe, expect, it } from 'vitest';
import {
  administrationOf,
  type AdminStanding,
  type AdminTwoFactorSetting,
  type Administration,
} from './admin-two-factor.js';
import { accessToArea } from './permissions/navigation.policy.js';

describe('administrationOf (ASVS V4.3.1)', () => {
  const rows: [string, AdminTwoFactorSetting, AdminStanding, Administration][] = [
    [
      'optional: an admin with a password and no two-step may administer',
      'optional',
      { isAdmin: true, hasPassword: true, twoFactorEnabled: false },
      'allowed',
    ],
    [
      'required: an admin with a password and no two-step must turn it on first',
      'required',
      { isAdmin: true, hasPassword: true, twoFactorEnabled: false },
      'needs-two-factor',
    ],
    [
      'required: an admin with a password and two-step on may administer',
      'required',
      { isAdmin: true, hasPassword: true, twoFactorEnabled: true },
      'allowed',
    ],
    [
      'required: a federated-only admin (no password) may administer',
      'required',
      { isAdmin: true, hasPassword: false, twoFactorEnabled: false },
      'allowed',
    ],
    [
      'required: a user who is not an admin is not one, with or without two-step',
      'required',
      { isAdmin: false, hasPassword: true, twoFactorEnabled: false },
      'not-admin',
    ],
    [
      'optional: a user who is not an admin is not one',
      'optional',
      { isAdmin: false, hasPassword: true, twoFactorEnabled: true },
      'not-admin',
    ],
  ];
  it.each(rows)('%s', (_name, setting, account, expected) => {
    expect(administrationOf(account, setting)).toBe(expected);
  });
});

describe('the admin area for an admin who may not administer yet', () => {
  const admin = { id: 1, isAdmin: true, registrationComplete: true };
  it.each([
    ['may administer -> allowed', { ...admin, mayAdminister: true }, 'allowed'],
    [
      'must turn on two-step -> needs-two-factor',
      { ...admin, mayAdminister: false },
      'needs-two-factor',
    ],
    ['not told (server without the setting) -> allowed', admin, 'allowed'],
    ['not an admin -> denied', { ...admin, isAdmin: false, mayAdminister: false }, 'denied'],
  ] as const)('%s', (_name, actor, expected) => {
    expect(accessToArea(actor, 'admin')).toBe(expected);
    // The member area is theirs like any user's.
    expect(accessToArea(actor, 'member')).toBe('allowed');
  });
});
