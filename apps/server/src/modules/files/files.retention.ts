import { lte } from 'drizzle-orm';
import { downloadTickets } from '../../db/schema.js';
import { before, GRACE_MS, type RetentionClass } from '../../ops/retention.js';

/** What the retention job (ops/retention.ts) deletes of this module's tables: download tickets. */
export const FILES_RETENTION: readonly RetentionClass[] = [
  {
    kind: 'download_tickets',
    where: 'download_tickets',
    holds: 'Which file or proposal PDF an account was about to download.',
    kept: '1 day after it expired (a minute after it was made); a used one goes at once.',
    setting: null,
    deletes: {
      table: downloadTickets,
      pastPeriod: (at) => lte(downloadTickets.expiresAt, before(at, GRACE_MS)),
    },
  },
];
