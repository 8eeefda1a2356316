import type { AuditAction } from '@merit/domain';
import { and, eq, sql } from 'drizzle-orm';
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
): Promise<void> {
  await runNamed(
    'write_audit',
    tx.insert(auditLog).values({
      actorId,
      at,
      action: entry.action,
      entityType: entry.action.slice(0, entry.action.indexOf('.')),
      entityId: entry.entityId,
      changes: changesBetween(entry.before, entry.after),
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
): Promise<void> {
  for (let start = 0; start < entries.length; start += AUDIT_BATCH) {
    const rows = entries.slice(start, start + AUDIT_BATCH).map((entry) => ({
      action: entry.action,
      entity_type: entry.action.slice(0, entry.action.indexOf('.')),
      entity_id: entry.entityId,
      changes: changesBetween(entry.before, entry.after),
    }));
    await tx.execute(sql`
      insert into ${auditLog} ("actor_id", "at", "action", "entity_type", "entity_id", "changes")
      select ${actorId}::int, ${at}, r."action", r."entity_type", r."entity_id", r."changes"
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as r("action" text, "entity_type" text, "entity_id" int, "changes" jsonb)`);
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
          eq(auditLog.entityType, target.action.slice(0, target.action.indexOf('.'))),
          eq(auditLog.entityId, target.entityId),
          eq(auditLog.action, target.action),
          sql`${auditBatchHash(auditLog.changes)} = to_jsonb(${target.hash}::int)`,
        ),
      )
      .returning({ id: auditLog.id }),
  );
  return rows.length > 0;
}
