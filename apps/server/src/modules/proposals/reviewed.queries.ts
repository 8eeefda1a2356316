import { sql } from 'drizzle-orm';

/*
 * "Reviewed" (ARCHITECTURE.md "Reviewed"), one rule written twice: the domain's
 * `isReviewed` for one proposal at a time, re-exported here so the two sit side by side,
 * and `reviewedSql` for lists and counts over thousands. Submitted, at least one review,
 * and every assigned reviewer has saved one. reviewed.api.test.ts, beside this file,
 * holds the two to the same answers.
 */
export { isReviewed } from '@merit/domain';

/**
 * "Reviewed" in SQL, for lists and counts that must not load every proposal. Written with table names in full, because drizzle leaves column names
 * unqualified in a one-table select, where `"id"` inside a subquery on reviews would mean
 * the review's id. Needs `proposals` in the FROM under its own name.
 */
export const reviewedSql = sql<boolean>`(
  "proposals"."state_val" >= 1
  and exists (select 1 from "reviews" r where r."proposal_id" = "proposals"."id")
  and not exists (
    select 1 from "proposal_reviewers" pr
    where pr."proposal_id" = "proposals"."id"
      and not exists (
        select 1 from "reviews" r2
        where r2."proposal_id" = "proposals"."id" and r2."reviewer_id" = pr."user_id"
      )
  )
)`;
