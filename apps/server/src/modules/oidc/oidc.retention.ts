import { lte } from 'drizzle-orm';
import { loginCodes, oidcStates } from '../../db/schema.js';
import { before, GRACE_MS, type RetentionClass } from '../../ops/retention.js';

/** What the retention job (ops/retention.ts) deletes of this module's tables: institutional logins under way and their one-time codes. */
export const OIDC_RETENTION: readonly RetentionClass[] = [
  {
    kind: 'oidc_states',
    where: 'oidc_states',
    holds: 'An institutional login under way: the page to return to and the account being linked.',
    kept: '1 day after it expired; a finished login takes it at once.',
    setting: null,
    deletes: {
      table: oidcStates,
      pastPeriod: (at) => lte(oidcStates.expiresAt, before(at, GRACE_MS)),
    },
  },
  {
    kind: 'login_codes',
    where: 'login_codes',
    holds: 'The one-time code that hands an institutional login to the web app, and the account.',
    kept: '1 day after it expired; a used one goes at once.',
    setting: null,
    deletes: {
      table: loginCodes,
      pastPeriod: (at) => lte(loginCodes.expiresAt, before(at, GRACE_MS)),
    },
  },
];
