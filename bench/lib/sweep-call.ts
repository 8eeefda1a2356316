/**
 * The call figure (h) sweeps the reminders of (issue 28): 10,000 Drafts by 10,000
 * applicants (one each) in a call whose submission closes in a day, with the default
 * "Tomorrow: submission closes" reminder (applicants with a Draft, 24 hours before), so
 * that one sweep finds 10,000 reminders due, one per person, and queues their mails.
 *
 * Made by set-based SQL the first time, in one transaction, and found again by its
 * committee's name after that. Its rule rests turned off, so that no server started on
 * the data (its own sweep runs every few minutes) sends these 10,000 mails:
 * `armSweepCall` turns it on for a measurement, with every other call's rule off (the
 * figure times this call's reminders alone), and `disarmSweepCall` puts everything back
 * and takes away what the sweep queued.
 */
import { defaultReminderRules } from '@merit/domain';
import { newUserHash } from '../../apps/server/src/platform/security/secrets.js';
import { ensureBenchCommittee, numberOf, rowsOf, type Query } from './database.js';
import type { Manifest } from './manifest.js';

/** Drafts, each by an applicant of its own: the reminders one sweep finds. */
export const SWEEP_RECIPIENTS = 10_000;
/** The rule: applicants with a Draft, 24 hours before submission closes. */
const RULE = defaultReminderRules().find(
  (rule) => rule.audience === 'authors_with_draft' && rule.offsetHours === -24,
)!;
/** The reminder fell due this long ago: submission closes in 24 hours less this. */
const DUE_AGO_MS = 10 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export interface SweepCall {
  callId: number;
  ruleId: number;
  drafts: number;
  made: boolean;
}

const committeeName = (manifest: Manifest) => `Benchmark sweep committee (call ${manifest.callId})`;
const username = (n: number) => `bench_sweep_author_${String(n).padStart(5, '0')}`;

async function describe(query: Query, committeeId: number): Promise<Omit<SweepCall, 'made'>> {
  const [call] = await rowsOf(query, 'select id from calls where committee_id = $1', [committeeId]);
  if (!call) return { callId: 0, ruleId: 0, drafts: 0 };
  const callId = Number(call.id);
  return {
    callId,
    ruleId: await numberOf(query, 'select min(id) from reminder_rules where call_id = $1', [
      callId,
    ]),
    drafts: await numberOf(
      query,
      'select count(distinct author_id) from proposals where call_id = $1 and state_val = 0',
      [callId],
    ),
  };
}

/** The sweep call, made first when there is none. `query` must be one connection. */
export async function ensureSweepCall(
  query: Query,
  manifest: Manifest,
  now: Date,
): Promise<SweepCall> {
  return ensureBenchCommittee(query, {
    name: committeeName(manifest),
    describe: (committeeId) => describe(query, committeeId),
    current: (call) => call.drafts === SWEEP_RECIPIENTS && call.ruleId > 0,
    make: () => makeSweepCall(query, manifest, now),
    vacuum: 'proposals, users, reminder_rules',
  });
}

async function makeSweepCall(query: Query, manifest: Manifest, now: Date): Promise<void> {
  const committeeId = await numberOf(
    query,
    'insert into committees (name) values ($1) returning id',
    [committeeName(manifest)],
  );
  const names = Array.from({ length: SWEEP_RECIPIENTS }, (_, i) => username(i + 1));
  // Made once per database: a call made again finds them.
  await query(
    `insert into users (username, email, first_name, last_name, email_verified, hash,
                        password_hash)
     select u.username, u.username || '@example.test', 'Applicant', 'No. ' || u.n, true, u.hash,
            (select password_hash from users where id = $3::int)
     from unnest($1::text[], $2::text[]) with ordinality as u(username, hash, n)
     on conflict do nothing`,
    [names, names.map(() => newUserHash()), manifest.member.userId],
  );
  const close = new Date(now.getTime() + DAY - DUE_AGO_MS);
  const callId = await numberOf(
    query,
    `insert into calls (committee_id, name, commencement, termination, review_commencement,
                        review_termination, is_review_open, description, created_at,
                        last_modified)
     values ($1::int, 'Benchmark sweep call', $2::timestamptz, $3::timestamptz,
             $4::timestamptz, $5::timestamptz, false, '', $6::timestamptz, $6::timestamptz)
     returning id`,
    [
      committeeId,
      new Date(now.getTime() - 30 * DAY),
      close,
      new Date(close.getTime() + DAY),
      new Date(close.getTime() + 30 * DAY),
      now,
    ],
  );
  const typeId = await numberOf(
    query,
    `insert into proposal_types (call_id, name, position) values ($1, 'Standard', 0)
     returning id`,
    [callId],
  );
  const drafts = await numberOf(
    query,
    `with made as (
       insert into proposals (call_id, proposal_type_id, author_id, name, state_val, created_at,
                              updated_at)
       select $1::int, $2::int, u.id, 'Sweep draft ' || substr(u.username, 20), 0,
              $4::timestamptz, $4::timestamptz
       from users u where u.username = any($3::text[])
       order by u.username
       returning 1)
     select count(*) from made`,
    [callId, typeId, names, now],
  );
  if (drafts !== SWEEP_RECIPIENTS)
    throw new Error(`Made ${drafts} of ${SWEEP_RECIPIENTS} drafts for the sweep call.`);
  await query(
    `insert into reminder_rules (call_id, position, audience, anchor, offset_hours, enabled,
                                 subject, body, since, updated_at)
     values ($1, 0, $2, $3, $4, false, $5, $6, $7, $7)`,
    [
      callId,
      RULE.audience,
      RULE.anchor,
      RULE.offsetHours,
      RULE.subject,
      RULE.body,
      new Date(now.getTime() - 2 * DAY),
    ],
  );
}

/**
 * Makes the call's one reminder due at `now` (submission closes in a day, less 10
 * minutes; the rule made two days ago) and on, sent to nobody yet, and every other call's
 * rules off: the rules it turned off, to be turned on again by `disarmSweepCall`.
 */
export async function armSweepCall(query: Query, call: SweepCall, now: Date): Promise<number[]> {
  const close = new Date(now.getTime() + DAY - DUE_AGO_MS);
  await query('begin', []);
  try {
    await query(
      `update calls set closed = false, commencement = $2, termination = $3,
         review_commencement = $4, review_termination = $5
       where id = $1`,
      [
        call.callId,
        new Date(now.getTime() - 30 * DAY),
        close,
        new Date(close.getTime() + DAY),
        new Date(close.getTime() + 30 * DAY),
      ],
    );
    await query('delete from reminder_dispatches where call_id = $1', [call.callId]);
    await query('update reminder_rules set enabled = true, since = $2 where id = $1', [
      call.ruleId,
      new Date(now.getTime() - 2 * DAY),
    ]);
    const off = await rowsOf(
      query,
      'update reminder_rules set enabled = false where enabled and call_id <> $1 returning id',
      [call.callId],
    );
    await query('commit', []);
    return off.map((row) => Number(row.id));
  } catch (error) {
    await query('rollback', []);
    throw error;
  }
}

/**
 * Puts things back after a sweep of the call at `sweptAt`: its rule off, the others on
 * again, and the dispatch rows and mail jobs the sweep made gone (a server started later
 * would otherwise try to send 10,000 mails).
 */
export async function disarmSweepCall(
  query: Query,
  call: SweepCall,
  turnedOff: readonly number[],
  sweptAt: Date | undefined,
  mailJob: string,
): Promise<void> {
  await query('begin', []);
  try {
    await query('update reminder_rules set enabled = false where id = $1', [call.ruleId]);
    await query('update reminder_rules set enabled = true where id = any($1::int[])', [
      [...turnedOff],
    ]);
    await query('delete from reminder_dispatches where call_id = $1', [call.callId]);
    if (sweptAt)
      await query('delete from jobs where kind = $1 and created_at = $2', [mailJob, sweptAt]);
    await query('commit', []);
  } catch (error) {
    await query('rollback', []);
    throw error;
  }
  // 10,000 rows of each gone: plans that read them (the progress page's last reminders,
  // the job runner's poll) should not scan their dead versions.
  await query('vacuum analyze reminder_dispatches, jobs', []);
}
