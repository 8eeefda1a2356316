import { lte, or } from 'drizzle-orm';
import { emailConfirmations, passwordResets } from '../../db/schema.js';
import { before, GRACE_MS, type RetentionClass } from '../../ops/retention.js';

/** What the retention job (ops/retention.ts) deletes of this module's tables: email confirmations, password resets and the accounts themselves. */
export const ACCOUNTS_RETENTION: readonly RetentionClass[] = [
  {
    kind: 'email_confirmations',
    where: 'email_confirmations',
    holds: 'The address being confirmed (a new account’s, or a changed one) and the account.',
    kept: '1 day after the link was used or expired (it works for 3 days).',
    setting: null,
    deletes: {
      table: emailConfirmations,
      pastPeriod: (at) =>
        or(
          lte(emailConfirmations.usedAt, before(at, GRACE_MS)),
          lte(emailConfirmations.expiresAt, before(at, GRACE_MS)),
        ),
    },
  },
  {
    kind: 'password_resets',
    where: 'password_resets',
    holds: 'That the account asked for a password reset, and when.',
    kept: '1 day after the link was used, replaced by a new password, or expired.',
    setting: null,
    deletes: {
      table: passwordResets,
      pastPeriod: (at) =>
        or(
          lte(passwordResets.usedAt, before(at, GRACE_MS)),
          lte(passwordResets.expiresAt, before(at, GRACE_MS)),
        ),
    },
  },
  {
    kind: 'accounts',
    where:
      'users, user_identities, user_two_factor (on), two_factor_recovery_codes (unused), security_keys, committee_roles',
    holds:
      'Name, username, email, institution, gender, phone, student status, the password hash, institutional login links, two-step keys, security keys (their public keys, names and when they were added and last used), committee roles.',
    kept: 'While the account exists. Its owner deletes it with Delete my account: its details go, and it stays only as an anonymised "Deleted user" so the work it submitted keeps an author. An administrator can deactivate it.',
    setting: null,
  },
];
