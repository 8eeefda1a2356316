import type { ConflictEvidence, ConflictState, ConflictType } from '@merit/domain';
import {
  detectConflicts,
  reconcileConflicts,
  type DetectedConflict,
  type DetectionPerson,
  type DetectionProposal,
  type StoredConflict,
} from '@merit/domain/conflict-detection';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import {
  calls,
  committeeRoles,
  conflicts,
  proposalCollaborators,
  proposals,
  users,
} from '../../db/schema.js';
import { writeAudits, type AuditEntry } from '../../platform/data/audit.js';
import { personNameSql } from '../../platform/data/sql.js';
import type { DetectionScope } from './conflicts.queries.js';

/*
 * The detector's job (DETECT_CONFLICTS_JOB): for each call of the scope that records
 * conflicts and is not closed, read the committee's current members and every proposal
 * of the call with its people in a fixed number of set-based queries, run the domain's
 * detector, and write what changed against the stored rows in one transaction per call.
 *
 * Audit: one row per conflict Merit creates, changes or removes (entity `conflict`, no
 * actor, the conflict's facts without its evidence), and one `call.detect_conflicts` row
 * per run that changed anything, with the counts. A run that finds what is stored writes
 * nothing at all, so a profile edit does not add a row per call to the log.
 */

/** Rows per statement when writing: few parameters (one JSON value), statements of bounded size. */
const WRITE_BATCH = 5000;

/** What a run changed. */
export interface DetectionOutcome {
  callId: number;
  created: number;
  updated: number;
  removed: number;
}

/** The calls `scope` names that detection runs on: not closed, with conflicts turned on. */
async function callsInScope(db: Db, scope: DetectionScope, now: Date): Promise<number[]> {
  const open = and(eq(calls.closed, false), eq(calls.conflictsEnabled, true));
  let where;
  if ('callId' in scope) where = and(open, eq(calls.id, scope.callId));
  else if ('committeeId' in scope) where = and(open, eq(calls.committeeId, scope.committeeId));
  else
    where = and(
      open,
      sql`(exists (select 1 from ${committeeRoles} r
          where r."committee_id" = ${calls.committeeId} and r."user_id" = ${scope.userId}::int
            and r."commencement" <= ${now} and r."termination" >= ${now})
        or exists (select 1 from ${proposals} p
          where p."call_id" = ${calls.id} and p."author_id" = ${scope.userId}::int)
        or exists (select 1 from ${proposals} p
          inner join ${proposalCollaborators} pc on pc."proposal_id" = p."id"
          where p."call_id" = ${calls.id} and pc."user_id" = ${scope.userId}::int))`,
    );
  const rows = await db.select({ id: calls.id }).from(calls).where(where).orderBy(calls.id);
  return rows.map((r) => r.id);
}

/** Runs detection over every call of `scope`, one transaction each. */
export async function detectForScope(
  db: Db,
  scope: DetectionScope,
  now: Date,
): Promise<DetectionOutcome[]> {
  const outcomes: DetectionOutcome[] = [];
  for (const callId of await callsInScope(db, scope, now)) {
    const outcome = await db.transaction((tx) => detectCall(tx, callId, now));
    if (outcome) outcomes.push(outcome);
  }
  return outcomes;
}

type PersonRow = {
  id: number;
  name: string;
  email: string;
  institution: string;
  recentCollaborators: { email: string }[];
};

const asPerson = (row: PersonRow): DetectionPerson => ({
  id: row.id,
  name: row.name,
  email: row.email,
  institution: row.institution,
  collaboratorEmails: row.recentCollaborators.map((c) => c.email),
});

const personColumns = {
  id: users.id,
  name: personNameSql(users),
  email: users.email,
  institution: users.institution,
  recentCollaborators: users.recentCollaborators,
};

/** Everything detection reads of one call: its members, proposals, their people, what is stored. */
async function readCall(tx: Tx, callId: number, committeeId: number, now: Date) {
  const ofCall = eq(proposals.callId, callId);
  // One after the other: a transaction has one connection, which runs one query at a time.
  // Members now and those whose role begins later: detection runs when a role is given,
  // and nothing would run again the day a future role begins.
  const memberRows = await tx
    .selectDistinct(personColumns)
    .from(committeeRoles)
    .innerJoin(users, eq(users.id, committeeRoles.userId))
    .where(
      and(
        eq(committeeRoles.committeeId, committeeId),
        gte(committeeRoles.termination, now),
        eq(users.isActive, true),
      ),
    );
  const proposalRows = await tx
    .select({ id: proposals.id, name: proposals.name, authorId: proposals.authorId })
    .from(proposals)
    .where(ofCall);
  const collaboratorRows = await tx
    .select({
      proposalId: proposalCollaborators.proposalId,
      userId: proposalCollaborators.userId,
    })
    .from(proposalCollaborators)
    .innerJoin(proposals, eq(proposals.id, proposalCollaborators.proposalId))
    .where(ofCall);
  const peopleRows = await tx
    .select(personColumns)
    .from(users)
    .where(
      sql`${users.id} in (
          select p."author_id" from ${proposals} p where p."call_id" = ${callId}
          union
          select pc."user_id" from ${proposalCollaborators} pc
            inner join ${proposals} p on p."id" = pc."proposal_id"
          where p."call_id" = ${callId})`,
    );
  const storedRows = await tx
    .select({
      id: conflicts.id,
      proposalId: conflicts.proposalId,
      userId: conflicts.userId,
      type: conflicts.type,
      source: conflicts.source,
      state: conflicts.state,
      pinned: conflicts.pinned,
      evidence: conflicts.evidence,
    })
    .from(conflicts)
    .innerJoin(proposals, eq(proposals.id, conflicts.proposalId))
    .where(ofCall);
  const members = [...new Map(memberRows.map((m) => [m.id, asPerson(m)])).values()];
  const collaboratorsOf = new Map<number, number[]>();
  for (const { proposalId, userId } of collaboratorRows) {
    const list = collaboratorsOf.get(proposalId);
    if (list) list.push(userId);
    else collaboratorsOf.set(proposalId, [userId]);
  }
  const detectionProposals: DetectionProposal[] = proposalRows.map((p) => ({
    ...p,
    collaboratorIds: collaboratorsOf.get(p.id) ?? [],
  }));
  const people = new Map(peopleRows.map((p) => [p.id, asPerson(p)]));
  return { members, proposals: detectionProposals, people, stored: storedRows };
}

/**
 * The evidence as one string, each item's keys in order: the same evidence gives the same
 * string whether the detector made it or jsonb stored it (jsonb keeps its own key order).
 * Items are flat objects of strings and numbers (`ConflictEvidence`).
 */
function evidenceKey(evidence: readonly ConflictEvidence[]): string {
  return evidence
    .map((item) => {
      const values = item as unknown as Record<string, string | number>;
      return Object.keys(values)
        .sort()
        .map((k) => `${k}\u0001${values[k]}`)
        .join('\u0002');
    })
    .join('\u0003');
}

/** A row of a statement's RETURNING, as both drivers give it. */
type Returned = {
  id: number;
  proposal_id: number;
  user_id: number;
  type: ConflictType;
  state: ConflictState;
};

const rowsOf = (result: unknown) => (result as { rows: Returned[] }).rows;

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += WRITE_BATCH)
    yield items.slice(start, start + WRITE_BATCH);
}

/** Merit's finding as an audit row records it: what it is, not what matched. */
const auditFacts = (row: {
  proposalId: number;
  userId: number;
  type: ConflictType;
  state: ConflictState;
}) => ({
  proposalId: row.proposalId,
  userId: row.userId,
  type: row.type,
  source: 'detected',
  state: row.state,
});

/**
 * Detects one call again and writes the difference. The call's row is held (FOR NO KEY
 * UPDATE: proposals can still be made in it) so two runs over one call take turns. Each
 * write is conditional on the row being as it was read, so a chair's judgement or a
 * declaration committed meanwhile is never overwritten: Merit only inserts pairs that
 * have no row, changes rows that are still its own in the state it read, and removes
 * only its own suggestions and authorship.
 */
export async function detectCall(
  tx: Tx,
  callId: number,
  now: Date,
): Promise<DetectionOutcome | undefined> {
  const [call] = await tx
    .select({
      committeeId: calls.committeeId,
      closed: calls.closed,
      conflictsEnabled: calls.conflictsEnabled,
    })
    .from(calls)
    .where(eq(calls.id, callId))
    .for('no key update');
  if (!call || call.closed || !call.conflictsEnabled) return undefined;
  const read = await readCall(tx, callId, call.committeeId, now);
  const detected = detectConflicts(read.members, read.proposals, read.people);
  const stored: (StoredConflict & { evidence: ConflictEvidence[] })[] = read.stored;
  const plan = reconcileConflicts(stored, detected);
  const storedById = new Map(stored.map((s) => [s.id, s]));
  const updates = plan.update.filter((u) => {
    const was = storedById.get(u.id)!;
    return (
      was.type !== u.type ||
      was.state !== u.state ||
      evidenceKey(was.evidence) !== evidenceKey(u.evidence)
    );
  });

  const audit: AuditEntry[] = [];
  let created = 0;
  for (const batch of batches(plan.insert)) {
    const json = JSON.stringify(
      batch.map((c: DetectedConflict) => ({
        proposal_id: c.proposalId,
        user_id: c.userId,
        type: c.type,
        state: c.state,
        evidence: c.evidence,
      })),
    );
    const inserted = rowsOf(
      await tx.execute(sql`
        insert into ${conflicts} ("proposal_id", "user_id", "type", "source", "state", "pinned",
          "reason", "evidence", "changed_by", "changed_at")
        select v."proposal_id", v."user_id", v."type", 'detected', v."state", false, '',
          v."evidence", null, ${now}
        from jsonb_to_recordset(${json}::jsonb)
          as v("proposal_id" int, "user_id" int, "type" text, "state" text, "evidence" jsonb)
        on conflict ("proposal_id", "user_id") do nothing
        returning "id", "proposal_id", "user_id", "type", "state"`),
    );
    created += inserted.length;
    for (const row of inserted)
      audit.push({
        action: 'conflict.create',
        entityId: row.id,
        after: auditFacts({ ...row, proposalId: row.proposal_id, userId: row.user_id }),
      });
  }

  let updated = 0;
  const updateById = new Map(updates.map((u) => [u.id, u]));
  for (const batch of batches(updates)) {
    const json = JSON.stringify(
      batch.map((c) => ({
        id: c.id,
        type: c.type,
        state: c.state,
        evidence: c.evidence,
        was: storedById.get(c.id)!.state,
      })),
    );
    // A state Merit changes (a suggestion that is now authorship, or back) is Merit's act:
    // who changed it is cleared. New evidence alone leaves the chair's judgement and name.
    const changed = rowsOf(
      await tx.execute(sql`
        update ${conflicts} c set "type" = v."type", "state" = v."state", "evidence" = v."evidence",
          "changed_by" = case when c."state" = v."state" then c."changed_by" else null end,
          "changed_at" = case when c."state" = v."state" then c."changed_at" else ${now} end
        from jsonb_to_recordset(${json}::jsonb)
          as v("id" int, "type" text, "state" text, "evidence" jsonb, "was" text)
        where c."id" = v."id" and c."source" = 'detected' and c."state" = v."was"
        returning c."id", c."proposal_id", c."user_id", c."type", c."state"`),
    );
    updated += changed.length;
    for (const row of changed) {
      const was = storedById.get(row.id)!;
      audit.push({
        action: 'conflict.update',
        entityId: row.id,
        before: { type: was.type, state: was.state, evidence: was.evidence.map((e) => e.kind) },
        after: {
          type: row.type,
          state: row.state,
          evidence: updateById.get(row.id)!.evidence.map((e) => e.kind),
        },
      });
    }
  }

  let removed = 0;
  for (const batch of batches(plan.remove)) {
    const gone = await tx
      .delete(conflicts)
      .where(
        and(
          inArray(conflicts.id, batch),
          eq(conflicts.source, 'detected'),
          sql`(${conflicts.state} = 'suggested' or ${conflicts.type} = 'author')`,
        ),
      )
      .returning({
        id: conflicts.id,
        proposalId: conflicts.proposalId,
        userId: conflicts.userId,
        type: conflicts.type,
        state: conflicts.state,
      });
    removed += gone.length;
    for (const row of gone)
      audit.push({
        action: 'conflict.delete',
        entityId: row.id,
        before: auditFacts(row),
        // The row is gone: what `writeAudits` would have read of it.
        callId,
        proposalId: row.proposalId,
        subjectUserId: row.userId,
      });
  }

  const outcome = { callId, created, updated, removed };
  if (audit.length > 0) {
    audit.push({
      action: 'call.detect_conflicts',
      entityId: callId,
      after: {
        created,
        updated,
        removed,
        members: read.members.length,
        proposals: read.proposals.length,
      },
    });
    await writeAudits(tx, null, now, audit);
  }
  return outcome;
}
