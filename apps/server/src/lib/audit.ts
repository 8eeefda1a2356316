import type { Tx } from '../db/client.js';
import { auditLog } from '../db/schema.js';

/** Every change the audit log records, as `<entity type>.<verb>`. */
export type AuditAction =
  | 'user.grant_admin'
  | 'user.revoke_admin'
  | 'user.deactivate'
  | 'user.reactivate'
  | 'role.create'
  | 'role.update'
  | 'role.delete'
  | 'committee.create'
  | 'committee.delete'
  | 'form_name.create'
  | 'form_name.update'
  | 'form_name.delete'
  | 'form.create'
  | 'form.update'
  | 'form.delete'
  | 'call.create'
  | 'call.update'
  | 'call.close'
  | 'extension.create'
  | 'extension.delete';

export interface AuditEntry {
  actorId: number;
  at: Date;
  action: AuditAction;
  entityId: number;
  /** The entity as the API presents it before the change; absent for a creation. */
  before?: unknown;
  /** The entity as the API presents it after the change; absent for a deletion. */
  after?: unknown;
}

/**
 * Records one change. Call it with the transaction that makes the change, so the log
 * and the data cannot disagree: either both are written or neither is.
 */
export async function writeAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    at: entry.at,
    action: entry.action,
    entityType: entry.action.slice(0, entry.action.indexOf('.')),
    entityId: entry.entityId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
