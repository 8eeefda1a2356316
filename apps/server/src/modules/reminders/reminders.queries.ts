import { defaultReminderRules, type ReminderAnchor, type ReminderAudience } from '@merit/domain';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { reminderRules } from '../../db/schema.js';
import { enforcedSql } from '../conflicts/conflicts.queries.js';

/*
 * The reminders module's face: the rules a new call starts with. Below it, the module's
 * own reads: a call's rules, and who each rule reminds of what, as SQL over whole calls.
 *
 * Whom a rule reminds is the domain's `reminderRecipients`, written here once more as SQL
 * (`reminderItemsSql`) so a sweep over a 10,000-proposal call is one query, not one per
 * proposal; reminders.rule.api.test.ts holds the two to the same people and deadlines on
 * a call with every case.
 */

export type ReminderRuleRow = typeof reminderRules.$inferSelect;

/**
 * Gives a new call the default rules (`defaultReminderRules`), in the transaction that
 * creates it. `since` is now: a rule never sends for a due time before it existed.
 */
export async function insertDefaultRules(tx: Tx, callId: number, now: Date): Promise<void> {
  await tx.insert(reminderRules).values(
    defaultReminderRules().map((rule, position) => ({
      ...rule,
      callId,
      position,
      since: now,
      updatedAt: now,
    })),
  );
}

/** A call's rules in order. */
export function rulesOfCall(tx: Tx, callId: number): Promise<ReminderRuleRow[]> {
  return tx
    .select()
    .from(reminderRules)
    .where(eq(reminderRules.callId, callId))
    .orderBy(asc(reminderRules.position), asc(reminderRules.id));
}

/**
 * Whether the reviewer `reviewer` (an SQL column) of the proposal `p` in the FROM, of the
 * call `k`, is still to write their review: no review of theirs saved (a `reviews` row is
 * made by the first save), not on its team, and no enforced conflict of interest with it
 * on a call with conflicts turned on. `reminderRecipients`' reviewer rule.
 */
export const unsavedReviewSql = (reviewer: SQL) => sql`(
  not exists (select 1 from "reviews" rv
    where rv."proposal_id" = p."id" and rv."reviewer_id" = ${reviewer})
  and ${reviewer} <> p."author_id"
  and not exists (select 1 from "proposal_collaborators" pc
    where pc."proposal_id" = p."id" and pc."user_id" = ${reviewer})
  and not (k."conflicts_enabled" and exists (select 1 from "conflicts" c
    where c."proposal_id" = p."id" and c."user_id" = ${reviewer} and ${enforcedSql})))`;

/**
 * Whether `person` (an SQL value) is on the team of the proposal `p`, or has an enforced
 * conflict of interest with it on the call `k`: what a chair is never told of.
 */
export const keptFromSql = (person: SQL) => sql`(
  p."author_id" = ${person}
  or exists (select 1 from "proposal_collaborators" pc
    where pc."proposal_id" = p."id" and pc."user_id" = ${person})
  or (k."conflicts_enabled" and exists (select 1 from "conflicts" c
    where c."proposal_id" = p."id" and c."user_id" = ${person} and ${enforcedSql})))`;

/**
 * Every (rule, person, proposal) a rule reminds of now, as a query with the columns
 * rule_id, call_id, committee_id, audience, anchor, offset_hours, since, user_id,
 * proposal_id, proposal_name and anchor_at (a timestamptz): `reminderRecipients` over
 * whole calls.
 *
 * - `authors_with_draft`: the author and collaborators of each draft, counted from the
 *   author's own submission close (`submissionCloseFor`: the call's end, or the end of the
 *   author's latest extension when later), the same for the whole team.
 * - `reviewers_pending`: each assigned reviewer of a submitted proposal who is still to
 *   write their review (`unsavedReviewSql`).
 *
 * `rules` chooses the rules (over `r`, the rule, and `k`, its call); `userId` keeps one
 * person's rows only.
 */
export function reminderItemsSql(rules: SQL, userId?: number): SQL {
  const authorsOnly = userId === undefined ? sql`` : sql`and t."user_id" = ${userId}::int`;
  const reviewersOnly = userId === undefined ? sql`` : sql`and pr."user_id" = ${userId}::int`;
  const ruleColumns = sql`r."id" as "rule_id", r."call_id", k."committee_id", r."audience",
    r."anchor", r."offset_hours", r."since"`;
  return sql`
    select ${ruleColumns}, t."user_id", p."id" as "proposal_id", p."name" as "proposal_name",
      case when r."anchor" = 'submission_close' then greatest(k."termination",
        coalesce((select max(e."termination") from "extensions" e
          where e."call_id" = k."id" and e."user_id" = p."author_id"), k."termination"))
        else k."review_termination" end as "anchor_at"
    from "reminder_rules" r
    join "calls" k on k."id" = r."call_id"
    join "proposals" p on p."call_id" = r."call_id" and p."state_val" = 0
    cross join lateral (
      select p."author_id" as "user_id"
      union
      select pc."user_id" from "proposal_collaborators" pc where pc."proposal_id" = p."id"
    ) t
    where r."audience" = 'authors_with_draft' and ${rules} ${authorsOnly}
    union all
    select ${ruleColumns}, pr."user_id", p."id", p."name",
      case when r."anchor" = 'submission_close' then k."termination"
        else k."review_termination" end
    from "reminder_rules" r
    join "calls" k on k."id" = r."call_id"
    join "proposals" p on p."call_id" = r."call_id" and p."state_val" >= 1
    join "proposal_reviewers" pr on pr."proposal_id" = p."id"
    where r."audience" = 'reviewers_pending' and ${rules} ${reviewersOnly}
      and ${unsavedReviewSql(sql`pr."user_id"`)}`;
}

/** Rows of a raw query, whichever driver ran it (both answer `{ rows }`). */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** What one person is reminded of by the enabled rules of the calls not closed. */
export async function itemsOfPerson(tx: Tx, userId: number) {
  const rows = rowsOf<{
    rule_id: number;
    call_id: number;
    audience: ReminderAudience;
    anchor: ReminderAnchor;
    offset_hours: number;
    user_id: number;
    proposal_id: number;
    proposal_name: string;
    anchor_ms: number;
  }>(
    await tx.execute(sql`
      select i."rule_id", i."call_id", i."audience", i."anchor", i."offset_hours", i."user_id",
        i."proposal_id", i."proposal_name",
        (extract(epoch from i."anchor_at") * 1000)::float8 as "anchor_ms"
      from (${reminderItemsSql(sql`r."enabled" and not k."closed"`, userId)}) i
      order by i."rule_id", lower(i."proposal_name"), i."proposal_id"`),
  );
  return rows.map((row) => ({
    ruleId: Number(row.rule_id),
    callId: Number(row.call_id),
    proposalId: Number(row.proposal_id),
    proposalName: row.proposal_name,
    anchorAt: new Date(Number(row.anchor_ms)),
  }));
}
