import { TWO_FACTOR_SETUP_TTL_MS } from '@merit/domain';
import { and, isNull, lte, or } from 'drizzle-orm';
import {
  authTokens,
  securityKeyChallenges,
  twoFactorRecoveryCodes,
  twoFactorTickets,
  userTwoFactor,
} from '../../db/schema.js';
import { before, GRACE_MS, DAY_MS, type RetentionClass } from '../../ops/retention.js';

/** What the retention job (ops/retention.ts) deletes of this module's tables: sessions and the two-step verification and security key records. */
export const AUTH_RETENTION: readonly RetentionClass[] = [
  {
    kind: 'sessions',
    where: 'auth_tokens',
    holds:
      'Each login: the account, when it was made and last used, how (password, two-step, institution) and the browser’s User-Agent; the key only as a digest.',
    kept: '30 days after the session ended (logged out, ended from My Account, ended by a password change or reset, or expired). A live session is never deleted.',
    setting: 'SESSION_RETENTION_DAYS',
    deletes: {
      table: authTokens,
      // A session ends at the first of these; isTokenLive refuses it from then on, so
      // no row this matches could still log anyone in.
      pastPeriod: (at) => {
        const kept = at.settings.sessionDays * DAY_MS;
        return or(
          lte(authTokens.revokedAt, before(at, kept)),
          lte(authTokens.createdAt, before(at, at.session.absoluteMs + kept)),
          lte(authTokens.lastUsedAt, before(at, at.session.idleMs + kept)),
        );
      },
    },
  },
  {
    kind: 'two_factor_tickets',
    where: 'two_factor_tickets',
    holds: 'A login waiting for its two-step code: the account and the wrong codes counted.',
    kept: '1 day after it expired (5 minutes after the password step); a used one goes at once.',
    setting: null,
    deletes: {
      table: twoFactorTickets,
      pastPeriod: (at) => lte(twoFactorTickets.expiresAt, before(at, GRACE_MS)),
    },
  },
  {
    kind: 'two_factor_setups',
    where: 'user_two_factor (not turned on)',
    holds: 'A two-step key (encrypted) that was never confirmed with a code.',
    kept: '1 day after the setup’s 30 minutes ran out. Turned-on two-step verification stays with the account.',
    setting: null,
    deletes: {
      table: userTwoFactor,
      pastPeriod: (at) =>
        and(
          isNull(userTwoFactor.enabledAt),
          lte(userTwoFactor.createdAt, before(at, TWO_FACTOR_SETUP_TTL_MS + GRACE_MS)),
        ),
    },
  },
  {
    kind: 'used_recovery_codes',
    where: 'two_factor_recovery_codes (used)',
    holds: 'A spent recovery code (its digest) and when it was used.',
    kept: '1 day after it was used. Unused codes stay while two-step verification is on.',
    setting: null,
    deletes: {
      table: twoFactorRecoveryCodes,
      pastPeriod: (at) => lte(twoFactorRecoveryCodes.usedAt, before(at, GRACE_MS)),
    },
  },
  {
    kind: 'security_key_challenges',
    where: 'security_key_challenges',
    holds:
      'A request to a security key waiting for its answer: the account, and the login ticket it belongs to.',
    kept: '1 day after it expired (5 minutes after it was made); an answered one goes at once.',
    setting: null,
    deletes: {
      table: securityKeyChallenges,
      pastPeriod: (at) => lte(securityKeyChallenges.expiresAt, before(at, GRACE_MS)),
    },
  },
];
