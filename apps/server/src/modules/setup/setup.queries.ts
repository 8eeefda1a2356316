import type { SetupStatus } from '@merit/contract';
import { and, count, eq, gte, type SQL } from 'drizzle-orm';
import type { AnyPgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { calls, committeeRoles, committees, forms, users } from '../../db/schema.js';

/** Rows of one table, with an optional condition: the checklist only counts. */
async function rowsOf(db: Tx, table: AnyPgTable, where?: SQL): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/**
 * What the first-run checklist ticks by (issue 30): one count per step, each a cheap count
 * of a small table. A chair role counts while it has not ended, so a role given for next
 * year ticks the step as well; anyone but an administrator counts as a person invited.
 */
export async function setupCounts(db: Tx, now: Date): Promise<SetupStatus> {
  const [committeeCount, chairs, formCount, callCount, people] = await Promise.all([
    rowsOf(db, committees),
    rowsOf(
      db,
      committeeRoles,
      and(eq(committeeRoles.role, 'CHAIR'), gte(committeeRoles.termination, now)),
    ),
    rowsOf(db, forms),
    rowsOf(db, calls),
    rowsOf(db, users, eq(users.isAdmin, false)),
  ]);
  return { committees: committeeCount, chairs, forms: formCount, calls: callCount, people };
}
