import { lte } from 'drizzle-orm';
import { assignmentRuns } from '../../db/schema.js';
import { before, DAY_MS, type RetentionClass } from '../../ops/retention.js';

/**
 * How long a proposed assignment waits to be applied or discarded. A chair reads the
 * preview within minutes or days; past a week the call has changed under it anyway (Apply
 * would refuse it as stale), so it only takes room.
 */
export const RUN_KEPT_MS = 7 * DAY_MS;

/** What the retention job (ops/retention.ts) deletes of this module's tables: old proposals. */
export const ASSIGNMENT_RETENTION: readonly RetentionClass[] = [
  {
    kind: 'assignment_runs',
    where: 'assignment_runs',
    holds:
      'Proposed assignments of reviewers not yet applied or discarded: which member would review which proposal, with their preference, and who asked for it.',
    kept: '7 days after it was proposed, unless applied or discarded before.',
    setting: null,
    deletes: {
      table: assignmentRuns,
      pastPeriod: (at) => lte(assignmentRuns.createdAt, before(at, RUN_KEPT_MS)),
    },
  },
];
