import { lte } from 'drizzle-orm';
import { proposalSaves } from '../../db/schema.js';
import { before, DAY_MS, type RetentionClass } from '../../ops/retention.js';

/**
 * How long a Save All's record (`proposal_saves`) keeps a retry of it idempotent. The
 * browser retries a Save All for minutes at most, so a day outlasts any retry with room
 * for a laptop that slept through one; past it the rows only grow with every save.
 */
export const SAVE_RETRY_WINDOW_MS = DAY_MS;

/** What the retention job (ops/retention.ts) deletes of this module's tables: Save All records. */
export const PROPOSALS_RETENTION: readonly RetentionClass[] = [
  {
    kind: 'proposal_saves',
    where: 'proposal_saves',
    holds:
      'No personal data: which Save All batch (its random hash) saved which form of a proposal, and when.',
    kept: '1 day after the save, as long as the browser may still retry it.',
    setting: null,
    deletes: {
      table: proposalSaves,
      // No index on saved_at: once pruned the table holds a day of saves, and a scan of
      // those an hour costs less than an index entry on every save.
      pastPeriod: (at) => lte(proposalSaves.savedAt, before(at, SAVE_RETRY_WINDOW_MS)),
    },
  },
];
