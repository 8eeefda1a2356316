import type {
  MyReminders,
  ReminderRules,
  ReminderRulesSave,
  RemindNowResult,
} from '@merit/contract';
import {
  callMessages,
  defaultReminderRules,
  personName,
  reminderDueAt,
  reminderMessages,
  reminderRuleErrors,
  renderReminderText,
  type FieldErrors,
} from '@merit/domain';
import { and, desc, eq, gte, inArray, notInArray, sql } from 'drizzle-orm';
import { calls, reminderDispatches, reminderRules, users } from '../../db/schema.js';
import { authorize } from '../../platform/http/authorize.js';
import { invalid, notFound, stale } from '../../platform/http/http-errors.js';
import { enqueueMailList } from '../../platform/io/mail-job.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { callResource, findCall, lockCall, type CallRow } from '../calls/calls.queries.js';
import { oneLine, reminderLinks, reminderMail, reminderValues } from './reminders.mails.js';
import { auditedRules, presentRules } from './reminders.presenter.js';
import {
  itemsOfPerson,
  keptFromSql,
  rowsOf,
  rulesOfCall,
  unsavedReviewSql,
  type ReminderRuleRow,
} from './reminders.queries.js';

/*
 * A call's reminder rules (issue 28): the chairs read and change them, and send the
 * reviewers' reminder now to members they choose; anyone reads the reminders they will
 * receive. The sweep that sends them when due is reminders.sweep.ts.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** My Account lists the reminders sent to the caller this long back. */
const SENT_SHOWN_MS = 90 * DAY_MS;

const ruleNotOfCall =
  'There is no such reminder on this call (it may have been deleted): reload to see the reminders as they are.';

/** The call, or 404. */
async function callOf(work: ReadWork, callId: number): Promise<CallRow> {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  return found.call;
}

// A chair's own extensions do not change what they may do with the reminders.
const resourceOf = (call: CallRow) => callResource(call, []);

/** GET /calls/{callId}/reminders/ (`followReview`: the chairs of its committee, admins). */
export async function getRules(work: ReadWork, callId: number): Promise<ReminderRules> {
  const call = await callOf(work, callId);
  authorize(work.actor, 'call.followReview', resourceOf(call), work.now);
  return presentRules(call, await rulesOfCall(work.tx, call.id), work.now);
}

/**
 * PUT /calls/{callId}/reminders/ (`remind`): the whole list, in order, from `version`.
 * A rule with an id is changed, one without is made, one left out deleted. A rule made
 * or turned on again counts from now (`since`): it never sends for a due time before.
 */
export async function saveRules(
  work: Work,
  callId: number,
  input: ReminderRulesSave,
): Promise<ReminderRules> {
  const { tx, now } = work;
  const call = await lockCall(tx, callId);
  if (!call) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.remind', resourceOf(call), now);
  const current = await rulesOfCall(tx, call.id);
  if (input.version !== call.remindersVersion)
    throw stale(reminderMessages.stale, presentRules(call, current, now));

  const byId = new Map(current.map((rule) => [rule.id, rule]));
  const errors: FieldErrors = {};
  const seen = new Set<number>();
  input.rules.forEach((rule, n) => {
    for (const [field, problems] of Object.entries(reminderRuleErrors(rule)))
      errors[`rules.${n}.${field}`] = problems;
    if (rule.id !== undefined) {
      if (!byId.has(rule.id) || seen.has(rule.id)) errors[`rules.${n}.id`] = [ruleNotOfCall];
      seen.add(rule.id);
    }
  });
  const first = Object.values(errors)[0]?.[0];
  // The envelope's detail is the first problem, so it names the unknown field too.
  if (first) throw invalid(errors, first);

  await tx
    .delete(reminderRules)
    .where(
      and(
        eq(reminderRules.callId, call.id),
        seen.size ? notInArray(reminderRules.id, [...seen]) : undefined,
      ),
    );
  for (const [position, { id, ...rule }] of input.rules.entries()) {
    const was = id === undefined ? undefined : byId.get(id);
    if (!was) {
      await tx
        .insert(reminderRules)
        .values({ ...rule, callId: call.id, position, since: now, updatedAt: now });
      continue;
    }
    const changed =
      was.position !== position ||
      (Object.keys(rule) as (keyof typeof rule)[]).some((key) => was[key] !== rule[key]);
    if (!changed) continue;
    await tx
      .update(reminderRules)
      .set({
        ...rule,
        position,
        since: !was.enabled && rule.enabled ? now : was.since,
        updatedAt: now,
      })
      .where(eq(reminderRules.id, was.id));
  }
  const version = call.remindersVersion + 1;
  await tx.update(calls).set({ remindersVersion: version }).where(eq(calls.id, call.id));
  const saved = await rulesOfCall(tx, call.id);
  await work.audit({
    action: 'call.update_reminders',
    entityId: call.id,
    before: auditedRules(current),
    after: auditedRules(saved),
  });
  return presentRules({ ...call, remindersVersion: version }, saved, now);
}

/**
 * The reviewers' text a reminder sent now uses: the call's first rule for reviewers that
 * is on (by position), else its first one that is off, else the default one.
 */
function reviewersText(rules: readonly ReminderRuleRow[]) {
  const forReviewers = rules.filter((rule) => rule.audience === 'reviewers_pending');
  return (
    forReviewers.find((rule) => rule.enabled) ??
    forReviewers[0] ??
    defaultReminderRules().find((rule) => rule.audience === 'reviewers_pending')!
  );
}

/** Of `userIds`, those who are neither a current member of the call's committee nor one of its reviewers. */
async function notMembersOf(work: ReadWork, call: CallRow, userIds: number[]) {
  const known = rowsOf<{ user_id: number }>(
    await work.tx.execute(sql`
      select cr."user_id" from "committee_roles" cr
      where cr."committee_id" = ${call.committeeId}::int
        and cr."commencement" <= ${work.now}::timestamptz
        and cr."termination" >= ${work.now}::timestamptz
        and cr."user_id" in (${sql.join(
          userIds.map((id) => sql`${id}::int`),
          sql`, `,
        )})
      union
      select pr."user_id" from "proposal_reviewers" pr
      join "proposals" p on p."id" = pr."proposal_id"
      where p."call_id" = ${call.id}::int and pr."user_id" in (${sql.join(
        userIds.map((id) => sql`${id}::int`),
        sql`, `,
      )})`),
  );
  const members = new Set(known.map((row) => Number(row.user_id)));
  return userIds.filter((id) => !members.has(id));
}

/**
 * POST /calls/{callId}/reminders/send/ (`remind`): reminds the chosen members now, with
 * the reviewers' text, of their assigned reviews of this call not yet saved. Never of a
 * proposal they may not review (their own, a conflict), nor of one the chair sending it
 * may not be told of (theirs, or one they have a conflict with). Members with nothing to
 * review are skipped. Each mail is recorded (`manual`) and the whole is audited once.
 */
export async function remindNow(
  work: Work,
  callId: number,
  userIds: readonly number[],
  publicUrl: string,
): Promise<RemindNowResult> {
  const { tx, actor, now } = work;
  const call = await callOf(work, callId);
  authorize(actor, 'call.remind', resourceOf(call), now);
  const chosen = [...new Set(userIds)];
  if ((await notMembersOf(work, call, chosen)).length > 0)
    throw invalid({ userIds: [reminderMessages.notMembers] }, reminderMessages.notMembers);

  const rows = rowsOf<{
    user_id: number;
    email: string;
    first_name: string;
    last_name: string;
    username: string;
    items: { id: number; name: string }[];
  }>(
    await tx.execute(sql`
      select pr."user_id", u."email", u."first_name", u."last_name", u."username",
        jsonb_agg(jsonb_build_object('id', p."id", 'name', p."name")
          order by lower(p."name"), p."id") as "items"
      from "proposals" p
      join "calls" k on k."id" = p."call_id"
      join "proposal_reviewers" pr on pr."proposal_id" = p."id"
      join "users" u on u."id" = pr."user_id" and u."is_active"
      where p."call_id" = ${call.id}::int and p."state_val" >= 1
        and pr."user_id" in (${sql.join(
          chosen.map((id) => sql`${id}::int`),
          sql`, `,
        )})
        and ${unsavedReviewSql(sql`pr."user_id"`)}
        and not ${keptFromSql(sql`${actor.id}::int`)}
      group by pr."user_id", u."id"`),
  );
  const byUser = new Map(rows.map((row) => [Number(row.user_id), row]));
  const sent = chosen.filter((id) => byUser.has(id));
  const skipped = chosen.filter((id) => !byUser.has(id));

  const text = reviewersText(await rulesOfCall(tx, call.id));
  // Reviews are due when review closes, whatever the rule whose text is borrowed counts from.
  const deadline = call.reviewTermination;
  const links = reminderLinks(publicUrl, call.id, 'reviewers_pending');
  const mails = sent.map((id) => {
    const row = byUser.get(id)!;
    return reminderMail(
      { email: row.email, name: personName(row.first_name, row.last_name, row.username) },
      'reviewers_pending',
      text,
      {
        callName: call.name,
        deadline,
        items: row.items.map((item) => ({ name: item.name, link: links.item(item.id) })),
        link: links.page,
      },
    );
  });
  await enqueueMailList(work, mails);
  if (sent.length > 0)
    await tx.insert(reminderDispatches).values(
      sent.map((userId) => ({
        callId: call.id,
        ruleId: null,
        userId,
        kind: 'manual' as const,
        dueAt: now,
        sentAt: now,
        items: byUser.get(userId)!.items.length,
        sentBy: actor.id,
      })),
    );
  await work.audit({
    action: 'call.send_reminders',
    entityId: call.id,
    after: { userIds: sent },
  });
  return { sent, skipped };
}

/**
 * GET /my_reminders/: for each rule that would remind the caller now, of the calls not
 * closed, its next due time for them (an applicant's own submission close, extensions
 * included) with its subject as they would read it; and the reminders sent to them in
 * the last 90 days, newest first.
 */
export async function getMyReminders(work: ReadWork, publicUrl: string): Promise<MyReminders> {
  const { tx, actor, now } = work;
  const items = await itemsOfPerson(tx, actor.id);
  const ruleIds = [...new Set(items.map((item) => item.ruleId))];
  const [rules, [me], sent] = await Promise.all([
    ruleIds.length
      ? tx
          .select({ rule: reminderRules, callName: calls.name })
          .from(reminderRules)
          .innerJoin(calls, eq(calls.id, reminderRules.callId))
          .where(inArray(reminderRules.id, ruleIds))
      : Promise.resolve([]),
    tx
      .select({ firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(users)
      .where(eq(users.id, actor.id)),
    tx
      .select({
        callId: reminderDispatches.callId,
        callName: calls.name,
        sentAt: reminderDispatches.sentAt,
        kind: reminderDispatches.kind,
        items: reminderDispatches.items,
      })
      .from(reminderDispatches)
      .innerJoin(calls, eq(calls.id, reminderDispatches.callId))
      .where(
        and(
          eq(reminderDispatches.userId, actor.id),
          gte(reminderDispatches.sentAt, new Date(now.getTime() - SENT_SHOWN_MS)),
        ),
      )
      .orderBy(desc(reminderDispatches.sentAt), desc(reminderDispatches.id))
      .limit(200),
  ]);
  const name = me ? personName(me.firstName, me.lastName, me.username) : '';

  const upcoming: MyReminders['upcoming'] = [];
  for (const { rule, callName } of rules) {
    const mine = items
      .filter((item) => item.ruleId === rule.id)
      .map((item) => ({ ...item, dueAt: reminderDueAt(rule.offsetHours, item.anchorAt) }))
      .filter((item) => item.dueAt > now);
    if (mine.length === 0) continue;
    const next = Math.min(...mine.map((item) => item.dueAt.getTime()));
    const listed = mine.filter((item) => item.dueAt.getTime() === next);
    const links = reminderLinks(publicUrl, rule.callId, rule.audience);
    const subject = renderReminderText(
      rule.subject,
      reminderValues(name, {
        callName,
        deadline: listed[0]!.anchorAt,
        items: listed.map((item) => ({
          name: item.proposalName,
          link: links.item(item.proposalId),
        })),
        link: links.page,
      }),
    );
    upcoming.push({
      callId: rule.callId,
      callName,
      audience: rule.audience,
      dueAt: new Date(next).toISOString(),
      subject: oneLine(subject),
      items: listed.length,
    });
  }
  upcoming.sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.callId - b.callId);
  return {
    upcoming,
    sent: sent.map((row) => ({
      callId: row.callId,
      callName: row.callName,
      sentAt: row.sentAt.toISOString(),
      kind: row.kind,
      items: row.items,
    })),
  };
}
