import { auditEntityType, type AuditAction } from '@merit/domain';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { auditBatchHash, auditLog } from '../../db/schema.js';
import { runNamed } from './sql.js';

/** Every change the audit log records, as `<entity type>.<verb>` (the domain's history.ts lists them with their words). */
export type { AuditAction };

/** A value longer than this, as JSON, is kept as its start and its length. */
export const AUDIT_VALUE_CAP = 1000;

type Snapshot = Record<string, unknown>;
export type AuditChanges = Record<string, { before?: unknown; after?: unknown }>;

export interface AuditEntry {
  action: AuditAction;
  entityId: number;
  /** The entity before the change, field by field; absent for a creation. */
  before?: Snapshot;
  /** The entity after the change; absent for a deletion. */
  after?: Snapshot;
  /**
   * The call and proposal the change concerns. Left out, they are read from the entity
   * (`DERIVED`) as the row is written; a deletion whose row is gone by then names them.
   */
  callId?: number;
  proposalId?: number;
  /** The person acted on; left out, read from the entity where it names one (`DERIVED`). */
  subjectUserId?: number;
}

/** Where a change came from: the request's id and the caller's address; null for jobs. */
export interface AuditOrigin {
  requestId: string | null;
  address: string | null;
}

/**
 * What an audit row's call, proposal and person acted on are, read from its entity in the
 * INSERT itself (one lookup by primary key): the History and Activity pages find a
 * proposal's and a call's rows by these columns, whichever entity a change was made to.
 * A deletion audited after its row went finds nothing here, so its call site names them.
 */
const DERIVED: Record<
  string,
  { call?: (id: SQL) => SQL; proposal?: (id: SQL) => SQL; subject?: (id: SQL) => SQL }
> = {
  call: { call: (id) => id },
  proposal: {
    call: (id) => sql`(select p."call_id" from "proposals" p where p."id" = ${id})`,
    proposal: (id) => id,
  },
  review: {
    call: (id) =>
      sql`(select p."call_id" from "reviews" rv join "proposals" p on p."id" = rv."proposal_id" where rv."id" = ${id})`,
    proposal: (id) => sql`(select rv."proposal_id" from "reviews" rv where rv."id" = ${id})`,
  },
  conflict: {
    call: (id) =>
      sql`(select p."call_id" from "conflicts" c join "proposals" p on p."id" = c."proposal_id" where c."id" = ${id})`,
    proposal: (id) => sql`(select c."proposal_id" from "conflicts" c where c."id" = ${id})`,
    subject: (id) => sql`(select c."user_id" from "conflicts" c where c."id" = ${id})`,
  },
  extension: {
    call: (id) => sql`(select e."call_id" from "extensions" e where e."id" = ${id})`,
    subject: (id) => sql`(select e."user_id" from "extensions" e where e."id" = ${id})`,
  },
  role: {
    subject: (id) => sql`(select cr."user_id" from "committee_roles" cr where cr."id" = ${id})`,
  },
  // Through the table, so a row about an id that names nobody still writes (no foreign key fails).
  user: { subject: (id) => sql`(select u."id" from "users" u where u."id" = ${id})` },
};

/** The value given, or what `DERIVED` reads for an entity of `type`, or null. */
function derived(
  given: number | undefined,
  type: string,
  column: 'call' | 'proposal' | 'subject',
  id: SQL,
): SQL {
  if (given !== undefined) return sql`${given}::int`;
  const read = DERIVED[type]?.[column];
  return read ? read(id) : sql`null::int`;
}

/** JSON as the log keeps it: Dates as ISO strings, like everything the API sends. */
const asJson = (value: unknown): string | undefined => JSON.stringify(value);

/** A value small enough to keep whole, or its first characters and its length. */
function capped(value: unknown): unknown {
  const json = asJson(value);
  if (json === undefined || json.length <= AUDIT_VALUE_CAP) return value ?? null;
  return `${json.slice(0, AUDIT_VALUE_CAP)}… (${json.length} characters in all)`;
}

/**
 * The fields that differ between two snapshots, each with its value before and after
 * (capped). A creation lists every field with only `after`, a deletion with only `before`.
 */
export function changesBetween(before: Snapshot | undefined, after: Snapshot | undefined) {
  const changes: AuditChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const was = before?.[key];
    const is = after?.[key];
    if (before && after && asJson(was) === asJson(is)) continue;
    changes[key] = {
      ...(before && key in before ? { before: capped(was) } : {}),
      ...(after && key in after ? { after: capped(is) } : {}),
    };
  }
  return changes;
}

/**
 * Records one change: who, when, what, and the fields that changed. Call it with the
 * transaction that makes the change (through the unit of work's `audit`), so the log and
 * the data cannot disagree: either both are written or neither is.
 */
export async function writeAudit(
  tx: Tx,
  actorId: number | null,
  at: Date,
  entry: AuditEntry,
  origin?: AuditOrigin,
): Promise<void> {
  const type = auditEntityType(entry.action);
  const id = sql`${entry.entityId}::int`;
  // One text per entity type and ids given (runNamed's one text per name).
  const given = [entry.callId, entry.proposalId, entry.subjectUserId].map((v) =>
    v === undefined ? 0 : 1,
  );
  await runNamed(
    `write_audit_${type}_${given.join('')}`,
    tx.insert(auditLog).values({
      actorId,
      at,
      action: entry.action,
      entityType: type,
      entityId: entry.entityId,
      changes: changesBetween(entry.before, entry.after),
      callId: derived(entry.callId, type, 'call', id),
      proposalId: derived(entry.proposalId, type, 'proposal', id),
      subjectUserId: derived(entry.subjectUserId, type, 'subject', id),
      requestId: origin?.requestId ?? null,
      address: origin?.address ?? null,
    }),
  );
}

/** Audit rows written by one statement (its rows travel as one JSON value). */
const AUDIT_BATCH = 5000;

/**
 * Records many changes made by one actor at one time (a background job's batch), in as
 * few statements as `AUDIT_BATCH` allows: `writeAudit` for each, without a round trip
 * or a parameter per value.
 */
export async function writeAudits(
  tx: Tx,
  actorId: number | null,
  at: Date,
  entries: readonly AuditEntry[],
  origin?: AuditOrigin,
): Promise<void> {
  const id = sql`r."entity_id"`;
  // The rows' own ids, or what `DERIVED` reads for each row's entity type.
  const column = (name: 'call' | 'proposal' | 'subject', given: SQL) => {
    const cases = Object.entries(DERIVED).flatMap(([type, read]) =>
      read[name] ? [sql`when ${type} then ${read[name](id)}`] : [],
    );
    return sql`coalesce(${given}, case r."entity_type" ${sql.join(cases, sql` `)} end)`;
  };
  for (let start = 0; start < entries.length; start += AUDIT_BATCH) {
    const rows = entries.slice(start, start + AUDIT_BATCH).map((entry) => ({
      action: entry.action,
      entity_type: auditEntityType(entry.action),
      entity_id: entry.entityId,
      changes: changesBetween(entry.before, entry.after),
      call_id: entry.callId ?? null,
      proposal_id: entry.proposalId ?? null,
      subject_user_id: entry.subjectUserId ?? null,
    }));
    await tx.execute(sql`
      insert into ${auditLog} ("actor_id", "at", "action", "entity_type", "entity_id", "changes",
        "call_id", "proposal_id", "subject_user_id", "request_id", "address")
      select ${actorId}::int, ${at}, r."action", r."entity_type", r."entity_id", r."changes",
        ${column('call', sql`r."call_id"`)}, ${column('proposal', sql`r."proposal_id"`)},
        ${column('subject', sql`r."subject_user_id"`)},
        ${origin?.requestId ?? null}::varchar, ${origin?.address ?? null}::varchar
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as r("action" text, "entity_type" text, "entity_id" int, "changes" jsonb,
          "call_id" int, "proposal_id" int, "subject_user_id" int)`);
  }
}

/**
 * Adds `item` to the list `field` of the audit row that `action` wrote for one Save All
 * batch, known by its save hash, unless the list holds it already. False when the batch
 * has no row yet: write it then, with `hash` in its changes. The caller holds the
 * entity's row lock, so two parts of one batch cannot both find no row and write two.
 * The hash is looked up through `audit_log_entity_batch_idx`, not among every row of the entity:
 * a proposal saved busily to its deadline has thousands.
 */
export async function addToAuditBatch(
  tx: Tx,
  target: { action: AuditAction; entityId: number; hash: number },
  field: string,
  item: number,
): Promise<boolean> {
  const list = sql`${auditLog.changes} -> ${field}::text -> 'after'`;
  const rows = await runNamed(
    'add_to_audit_batch',
    tx
      .update(auditLog)
      .set({
        changes: sql`case when ${list} @> to_jsonb(${item}::int) then ${auditLog.changes}
          else jsonb_set(${auditLog.changes}, array[${field}::text, 'after'],
            ${list} || to_jsonb(${item}::int)) end`,
      })
      .where(
        and(
          eq(auditLog.entityType, auditEntityType(target.action)),
          eq(auditLog.entityId, target.entityId),
          eq(auditLog.action, target.action),
          sql`${auditBatchHash(auditLog.changes)} = to_jsonb(${target.hash}::int)`,
        ),
      )
      .returning({ id: auditLog.id }),
  );
  return rows.length > 0;
}
