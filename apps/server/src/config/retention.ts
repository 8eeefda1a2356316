/** The operator's periods (config/config.ts): SESSION_RETENTION_DAYS and AUDIT_RETENTION_DAYS. */
export interface RetentionSettings {
  /** Days the record of an ended session is kept after it ended. */
  sessionDays: number;
  /** Days an audit row is kept after it was written; null keeps the audit log. */
  auditDays: number | null;
}

export const DEFAULT_RETENTION: RetentionSettings = { sessionDays: 30, auditDays: null };
