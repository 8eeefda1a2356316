/**
 * The alert settings (`ALERT_*`, ALERT_EMAILS): which abnormal request rates mail the
 * administrators (ops/alerts.ts, OWASP ASVS V8.1.4). Each kind counts one sort of event
 * that signals an attack or a fault.
 */
export const ALERT_KINDS = [
  'login_failed',
  'access_refused',
  'rate_limited',
  'server_error',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The settings (config/config.ts, `ALERT_*`): a kind's threshold per window, 0 when it is off. */
export interface AlertSettings {
  thresholds: Record<AlertKind, number>;
  /** Addresses that get every alert besides the active administrators'. */
  emails: string[];
}
