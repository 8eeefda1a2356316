import {
  chairsInCopy,
  latestDueOnly,
  personName,
  reminderGoesOut,
  type ReminderAnchor,
  type ReminderAudience,
} from '@merit/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { jobs, reminderDispatches } from '../../db/schema.js';
import { SEND_MAIL_JOB } from '../../platform/io/mail-job.js';
import type { Mail } from '../../platform/io/mailer.js';
import { chairCopyMail, reminderLinks, reminderMail } from './reminders.mails.js';
import { keptFromSql, reminderItemsSql, rowsOf } from './reminders.queries.js';

/*
 * The sweep (issue 28): every few minutes, the job runner's schedule `reminders.sweep`
 * finds the reminders that are due and queues their mails. Who is reminded is worked out
 * here, when a reminder is due, from the call as it is then.
 *
 * Each person gets one mail per rule and due time, listing everything they have due (a
 * reviewer with 8 pending reviews gets one mail with 8 links). Each mail is queued in the
 * transaction that inserts its dispatch row, and only when the row is new: the row's
 * unique key (rule, person, due time, kind) is what makes a reminder go out once, however
 * many processes sweep at once, and however often a sweep is retried or a process restarts.
 */

/** The schedule's job kind: one sweep per due time across every process. */
export const REMINDERS_SWEEP_JOB = 'reminders.sweep';

/** What one sweep did. */
export interface SweepResult {
  /** Reminders found due now: one per rule, person and due time (chairs' copies included). */
  found: number;
  /** Of those, the ones whose dispatch row this sweep inserted, each with its mail queued. */
  queued: number;
}

export interface SweepOptions {
  /** The site's address, for the links in the mails (PUBLIC_URL). */
  publicUrl?: string;
  /**
   * Only reminders due after this instant: the end of the sweep before. The schedule
   * passes it, so a due time is looked at by the first sweep at or after it, with the
   * recipients of that moment: a reviewer assigned since gets the next reminder, not this
   * one. Omitted: every reminder that still goes out (`reminderGoesOut`), however long ago
   * it was due.
   */
  from?: Date;
}

/** Rows one statement inserts at most: one JSON parameter each, in one transaction per rule. */
const CHUNK = 2000;

interface RuleRow {
  id: number;
  callId: number;
  callName: string;
  audience: ReminderAudience;
  anchor: ReminderAnchor;
  offsetHours: number;
  enabled: boolean;
  since: Date;
  subject: string;
  body: string;
}

interface Person {
  email: string;
  first_name: string;
  last_name: string;
  username: string;
}

/** One reminder due: a person, the due time, and what it lists. */
type DueRow = Person & {
  rule_id: number;
  user_id: number;
  due_ms: number;
  anchor_ms: number;
  items: { id: number; name: string }[];
};

/** One chair's copy: the late reviewers of the proposals they may be told of. */
type CopyRow = Person & {
  rule_id: number;
  user_id: number;
  due_ms: number;
  anchor_ms: number;
  late: { reviewer: string; id: number; name: string }[];
};

const nameOf = (person: Person) => personName(person.first_name, person.last_name, person.username);

/** The enabled rules of the calls not closed. */
async function openRules(db: Db): Promise<RuleRow[]> {
  const rows = rowsOf<{
    id: number;
    call_id: number;
    call_name: string;
    audience: ReminderAudience;
    anchor: ReminderAnchor;
    offset_hours: number;
    since_ms: number;
    subject: string;
    body: string;
  }>(
    await db.execute(sql`
      select r."id", r."call_id", k."name" as "call_name", r."audience", r."anchor",
        r."offset_hours", (extract(epoch from r."since") * 1000)::float8 as "since_ms",
        r."subject", r."body"
      from "reminder_rules" r join "calls" k on k."id" = r."call_id"
      where r."enabled" and not k."closed"
      order by r."call_id", r."position", r."id"`),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    callId: Number(row.call_id),
    callName: row.call_name,
    audience: row.audience,
    anchor: row.anchor,
    offsetHours: Number(row.offset_hours),
    enabled: true,
    since: new Date(Number(row.since_ms)),
    subject: row.subject,
    body: row.body,
  }));
}

/**
 * The items of `rules` whose reminder goes out now, each with its due time: the domain's
 * `reminderGoesOut` as SQL (due, not before the rule's `since`, and before its anchor when
 * it counts down to it), and after `from`. Only active accounts are reminded.
 */
function dueItemsSql(rules: SQL, now: Date, from: Date | undefined): SQL {
  const after = from ? sql`and d."due_at" > ${from}::timestamptz` : sql``;
  return sql`
    select d.* from (
      select i.*, i."anchor_at" + i."offset_hours" * interval '1 hour' as "due_at"
      from (${reminderItemsSql(rules)}) i
    ) d
    join "users" du on du."id" = d."user_id" and du."is_active"
    where d."due_at" <= ${now}::timestamptz and d."due_at" >= d."since"
      and (d."offset_hours" >= 0 or ${now}::timestamptz < d."anchor_at") ${after}`;
}

const epochMs = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/** One row per rule, person and due time, listing their items by name. */
async function dueReminders(db: Db, rules: SQL, now: Date, from: Date | undefined) {
  return rowsOf<DueRow>(
    await db.execute(sql`
      select d."rule_id", d."user_id", ${epochMs(sql`d."due_at"`)} as "due_ms",
        ${epochMs(sql`d."anchor_at"`)} as "anchor_ms",
        u."email", u."first_name", u."last_name", u."username",
        jsonb_agg(jsonb_build_object('id', d."proposal_id", 'name', d."proposal_name")
          order by lower(d."proposal_name"), d."proposal_id") as "items"
      from (${dueItemsSql(rules, now, from)}) d
      join "users" u on u."id" = d."user_id"
      group by d."rule_id", d."user_id", d."due_at", d."anchor_at", u."id"`),
  );
}

/**
 * The chairs' copies of `rules` (those `chairsInCopy` names): one row per rule, due time
 * and current chair of the committee (by role: an admin's standing is not one, and the
 * account active), naming each late reviewer with the proposal, without the proposals
 * the chair is on the team of or has an enforced conflict with. A chair left with nothing
 * has no row.
 */
async function chairCopies(db: Db, rules: SQL, now: Date, from: Date | undefined) {
  return rowsOf<CopyRow>(
    await db.execute(sql`
      select l."rule_id", ch."user_id", ${epochMs(sql`l."due_at"`)} as "due_ms",
        ${epochMs(sql`l."anchor_at"`)} as "anchor_ms",
        u."email", u."first_name", u."last_name", u."username",
        jsonb_agg(jsonb_build_object(
            'reviewer', coalesce(nullif(trim(ru."first_name" || ' ' || ru."last_name"), ''), ru."username"),
            'id', l."proposal_id", 'name', l."proposal_name")
          order by lower(l."proposal_name"), l."proposal_id", ru."last_name", ru."first_name", ru."id") as "late"
      from (${dueItemsSql(rules, now, from)}) l
      join (select distinct cr."committee_id", cr."user_id" from "committee_roles" cr
        where cr."role" = 'CHAIR' and cr."commencement" <= ${now}::timestamptz
          and cr."termination" >= ${now}::timestamptz) ch on ch."committee_id" = l."committee_id"
      join "users" u on u."id" = ch."user_id" and u."is_active"
      join "users" ru on ru."id" = l."user_id"
      join "proposals" p on p."id" = l."proposal_id"
      join "calls" k on k."id" = l."call_id"
      where not ${keptFromSql(sql`ch."user_id"`)}
      group by l."rule_id", l."due_at", l."anchor_at", ch."user_id", u."id"`),
  );
}

/** A dispatch row to insert and the mail that goes with it. */
interface Outgoing {
  user_id: number;
  due_at: string;
  kind: 'rule' | 'copy';
  items: number;
  mail: Mail;
}

/**
 * Inserts the rule's dispatch rows and queues the mails of those that are new, in one
 * transaction, each chunk in one statement: a row another sweep inserted first (or this
 * one, before a retry) is skipped with its mail. Rows go in one order (person, due time,
 * kind), so two sweeps inserting the same rows wait for each other and never deadlock.
 */
async function dispatch(db: Db, rule: RuleRow, outgoing: Outgoing[], now: Date) {
  outgoing.sort(
    (a, b) =>
      a.user_id - b.user_id || a.due_at.localeCompare(b.due_at) || a.kind.localeCompare(b.kind),
  );
  return db.transaction(async (tx) => {
    let queued = 0;
    for (let start = 0; start < outgoing.length; start += CHUNK) {
      const chunk = outgoing.slice(start, start + CHUNK);
      const result = rowsOf<{ queued: number }>(
        await tx.execute(sql`
          with "input" as (
            select x.* from jsonb_to_recordset(${JSON.stringify(
              chunk.map((row, n) => ({ ...row, n })),
            )}::jsonb) as x("user_id" int, "due_at" timestamptz, "kind" text, "items" int,
              "mail" jsonb, "n" int)
          ), "inserted" as (
            insert into ${reminderDispatches}
              ("call_id", "rule_id", "user_id", "kind", "due_at", "sent_at", "items")
            select ${rule.callId}::int, ${rule.id}::int, x."user_id", x."kind", x."due_at",
              ${now}::timestamptz, x."items"
            from "input" x order by x."n"
            on conflict ("rule_id", "user_id", "due_at", "kind") do nothing
            returning "user_id", "due_at", "kind"
          ), "queued" as (
            insert into ${jobs} ("kind", "payload", "run_at", "created_at")
            select ${SEND_MAIL_JOB}, x."mail", ${now}::timestamptz, ${now}::timestamptz
            from "input" x join "inserted" d
              on d."user_id" = x."user_id" and d."due_at" = x."due_at" and d."kind" = x."kind"
            returning 1
          )
          select count(*)::int as "queued" from "queued"`),
      );
      queued += Number(result[0]?.queued ?? 0);
    }
    return queued;
  });
}

/**
 * Finds every reminder due now, for every enabled rule of every call not closed, and
 * queues its mail once: one per rule, person and due time, listing all their items, and
 * for the rules that copy the chairs (`chairsInCopy`), one per chair and due time naming
 * the late reviewers. Set-based: two queries over all calls, then one transaction per
 * rule that has something due. The texts are rendered here, with `renderReminderText`.
 */
export async function sweepReminders(
  db: Db,
  now: Date,
  log: { info(details: object, message: string): void },
  options: SweepOptions = {},
): Promise<SweepResult> {
  const publicUrl = options.publicUrl ?? 'http://localhost:3000';
  const rules = await openRules(db);
  if (rules.length === 0) return { found: 0, queued: 0 };
  const byId = new Map(rules.map((rule) => [rule.id, rule]));
  const ids = (list: RuleRow[]) =>
    sql`r."id" in (${sql.join(
      list.map((rule) => sql`${rule.id}::int`),
      sql`, `,
    )})`;
  const copied = rules.filter((rule) => chairsInCopy(rule));
  const due = await dueReminders(db, ids(rules), now, options.from);
  const copies = copied.length ? await chairCopies(db, ids(copied), now, options.from) : [];

  // The SQL narrows; the domain decides: a row it would not send is dropped.
  const goesOut = (rule: RuleRow, anchorMs: number) =>
    reminderGoesOut({ ...rule, anchorAt: new Date(Number(anchorMs)), callClosed: false }, now);
  const outgoing = new Map<number, Outgoing[]>();
  const add = (ruleId: number, row: Outgoing) => {
    const list = outgoing.get(ruleId);
    if (list) list.push(row);
    else outgoing.set(ruleId, [row]);
  };
  // After an outage one person may have several of a call's reminders due at once: one mail.
  const once = <R extends { rule_id: number; user_id: number; due_ms: number; anchor_ms: number }>(
    rows: R[],
    kind: string,
  ) =>
    latestDueOnly(
      rows.filter((row) => goesOut(byId.get(Number(row.rule_id))!, row.anchor_ms)),
      (row) => {
        const rule = byId.get(Number(row.rule_id))!;
        return `${rule.callId}:${rule.audience}:${kind}:${row.user_id}`;
      },
      (row) => Number(row.due_ms),
    );
  for (const row of once(due, 'rule')) {
    const rule = byId.get(Number(row.rule_id))!;
    const links = reminderLinks(publicUrl, rule.callId, rule.audience);
    add(rule.id, {
      user_id: Number(row.user_id),
      due_at: new Date(Number(row.due_ms)).toISOString(),
      kind: 'rule',
      items: row.items.length,
      mail: reminderMail({ email: row.email, name: nameOf(row) }, rule.audience, rule, {
        callName: rule.callName,
        deadline: new Date(Number(row.anchor_ms)),
        items: row.items.map((item) => ({ name: item.name, link: links.item(item.id) })),
        link: links.page,
      }),
    });
  }
  for (const row of once(copies, 'copy')) {
    const rule = byId.get(Number(row.rule_id))!;
    add(rule.id, {
      user_id: Number(row.user_id),
      due_at: new Date(Number(row.due_ms)).toISOString(),
      kind: 'copy',
      items: row.late.length,
      mail: chairCopyMail(
        { email: row.email, name: nameOf(row) },
        {
          callName: rule.callName,
          deadline: new Date(Number(row.anchor_ms)),
          late: row.late.map((late) => ({
            reviewer: late.reviewer,
            proposal: late.name,
            link: `${publicUrl}/calls/${rule.callId}/proposals/${late.id}/`,
          })),
        },
      ),
    });
  }

  let found = 0;
  let queued = 0;
  for (const [ruleId, list] of outgoing) {
    found += list.length;
    queued += await dispatch(db, byId.get(ruleId)!, list, now);
  }
  if (found > 0) log.info({ found, queued }, 'reminders swept');
  return { found, queued };
}
