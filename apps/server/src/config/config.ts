import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_TWO_FACTOR_SETTINGS,
  type AdminTwoFactorSetting,
  DEFAULT_SESSION_POLICY,
  MIN_PASSWORD_LENGTH,
  SESSION_IDLE_MINUTES_MIN,
  type SessionPolicy,
} from '@merit/domain';
import type { AlertKind, AlertSettings } from './alerts.js';
import { parseClamdUrl, type ClamdAddress } from './clamd.js';
import { DEFAULT_RETENTION, type RetentionSettings } from './retention.js';
import { parseSecretKey, SECRET_KEY_RULE, ServerSecret } from './secret-key.js';

/**
 * Merit is configured by environment variables only (ARCHITECTURE.md "Runtime shape").
 * They are read and checked once, here, so a typo stops the start with one line that
 * names the variable instead of failing later somewhere unrelated.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; the embedded PGlite database is used when unset. */
  databaseUrl: string | undefined;
  /** How long one SQL statement may run on PostgreSQL before the server cancels it. */
  databaseStatementTimeoutMs: number;
  publicUrl: string;
  /** PUBLIC_URL was not set, so links in mail point at http://localhost:PORT. */
  publicUrlIsDefault: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  initialAdmin: { username: string; email: string; password: string } | undefined;
  /** Built web app (index.html and assets/). */
  webDir: string;
  /** The user manual PDF served as Help. */
  manualPath: string;
  /**
   * The reverse proxies whose X-Forwarded-For entries are believed: their addresses and
   * ranges, or how many stand in front of Merit (a hop count); false when clients connect
   * directly.
   */
  trustProxy: false | number | string[];
  /** SMTP server for outgoing mail; when unset, mail is written to DATA_DIR/outbox as .eml files. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** How long a login lasts: SESSION_MAX_AGE_HOURS after it, SESSION_IDLE_MINUTES unused. */
  session: SessionPolicy;
  /** Requests per client address per 15 minutes to the login, registration, captcha and reset endpoints. */
  authRateLimitPerIp: number;
  /** The most bytes of uploaded PDFs one proposal extract merges; files past it are named, not merged. */
  extractAttachmentsMaxBytes: number;
  /**
   * PDF_WORKERS: the most proposal extracts made at once, each in a worker thread of its
   * own (modules/files/pdf-worker.ts); the others wait their turn.
   */
  pdfWorkers: number;
  /**
   * The most bytes of stored files one user's uploads may hold in all (UPLOAD_QUOTA_MB,
   * ASVS V12.1.3); deleting files frees their share.
   */
  uploadQuotaBytes: number;
  /**
   * CLAMD_URL: the ClamAV daemon every uploaded file is scanned by before it is stored
   * (ASVS V12.4.2, platform/io/virus-scan.ts); files are not scanned when it is unset.
   */
  clamd: ClamdAddress | undefined;
  /** Federated login (OpenID Connect, e.g. AAF); off when OIDC_ISSUER is unset. */
  oidc: OidcConfig | undefined;
  /** S3-compatible storage for uploaded files; on local disk under DATA_DIR/files when unset. */
  s3: S3Config | undefined;
  /**
   * The operator's privacy notice; when set, registering asks the user to accept it and
   * records when they did (ASVS V8.3.3).
   */
  privacyNoticeUrl: string | undefined;
  /**
   * When to mail the administrators about abnormal request rates (ASVS V8.1.4): each
   * kind's count per 5 minutes (`ALERT_*`, 0 turns one off), and ALERT_EMAILS.
   */
  alerts: AlertSettings;
  /**
   * SECRET_KEY: the server's secret, from which the password pepper and the two-step keys'
   * key are derived (platform/security/server-key.ts). Unset: DATA_DIR/secret.key, made by the first start.
   */
  secretKey: ServerSecret | undefined;
  /**
   * ADMIN_TWO_FACTOR (ASVS V4.3.1): `required` makes an admin who logs in with a password
   * turn on two-step verification before administering; `optional` (the default) does not.
   */
  adminTwoFactor: AdminTwoFactorSetting;
  /**
   * How long data is kept after it stopped being of use (ASVS V8.3.8, ops/retention.ts):
   * SESSION_RETENTION_DAYS for ended sessions, AUDIT_RETENTION_DAYS for the audit log.
   */
  retention: RetentionSettings;
}

export interface S3Config {
  /** The server's address; unset for AWS itself, which the region names. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  displayName: string;
  /** Scopes asked for, of those the provider says it supports. */
  scopes: string[];
  allowHttp: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

/**
 * The repository: two levels above the server's package (apps/server), the nearest folder
 * with a package.json above this module, which runs as apps/server/src/config/config.ts or
 * bundled into apps/server/dist/*.js.
 */
function findRepoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir)
    dir = path.dirname(dir);
  return path.resolve(dir, '../..');
}
const repoRoot = findRepoRoot();
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Env = Record<string, string | undefined>;

const MIB = 1024 * 1024;
/** One file of the largest size (MAX_UPLOAD_BYTES, 25 MB) must fit in a quota. */
const MIN_UPLOAD_QUOTA_MB = 25;
const MAX_UPLOAD_QUOTA_MB = 1024 * 1024;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function readPort(env: Env): number {
  const raw = read(env, 'PORT');
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError('PORT', `must be a whole number from 1 to 65535, but is "${raw}".`);
  }
  return port;
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL (${protocols.join(' or ')}), but is not one.`);
  }
  if (!protocols.includes(url.protocol.replace(/:$/, ''))) {
    throw new ConfigError(
      name,
      `must start with ${protocols.map((p) => `${p}://`).join(' or ')}, but starts with ${url.protocol}//.`,
    );
  }
  return raw;
}

/** A setting that takes one of a few words (LOG_LEVEL, ADMIN_TWO_FACTOR). */
function readChoice<T extends string>(
  env: Env,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const value = read(env, name) ?? fallback;
  if (!(choices as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${choices.join(', ')}, but is "${value}".`);
  }
  return value as T;
}

function readPositiveInt(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new ConfigError(name, `must be a whole number of at least 1, but is "${raw}".`);
  }
  return Number(raw);
}

/** The longest SESSION_MAX_AGE_HOURS: 30 days, ASVS level 1's limit. */
const SESSION_MAX_AGE_HOURS_MAX = 720;

/**
 * SESSION_MAX_AGE_HOURS and SESSION_IDLE_MINUTES. The defaults meet ASVS V3.3.2 level 2
 * (12 hours); a longer age is accepted up to level 1's 30 days, an idle limit only up to
 * the age (beyond it, it would never end a session).
 */
function readSessionPolicy(env: Env): SessionPolicy {
  const hoursRaw = read(env, 'SESSION_MAX_AGE_HOURS');
  let absoluteMs = DEFAULT_SESSION_POLICY.absoluteMs;
  if (hoursRaw !== undefined) {
    const hours = Number(hoursRaw);
    if (!/^\d+$/.test(hoursRaw) || hours < 1 || hours > SESSION_MAX_AGE_HOURS_MAX) {
      throw new ConfigError(
        'SESSION_MAX_AGE_HOURS',
        `must be a whole number of hours from 1 to ${SESSION_MAX_AGE_HOURS_MAX}, but is "${hoursRaw}". 12 or less meets ASVS level 2.`,
      );
    }
    absoluteMs = hours * 3_600_000;
  }
  const maxIdle = absoluteMs / 60_000;
  const minutesRaw = read(env, 'SESSION_IDLE_MINUTES');
  let idleMs = Math.min(DEFAULT_SESSION_POLICY.idleMs, absoluteMs);
  if (minutesRaw !== undefined) {
    const minutes = Number(minutesRaw);
    if (!/^\d+$/.test(minutesRaw) || minutes < SESSION_IDLE_MINUTES_MIN || minutes > maxIdle) {
      throw new ConfigError(
        'SESSION_IDLE_MINUTES',
        `must be a whole number of minutes from ${SESSION_IDLE_MINUTES_MIN} to ${maxIdle} (the session's maximum age, SESSION_MAX_AGE_HOURS), but is "${minutesRaw}".`,
      );
    }
    idleMs = minutes * 60_000;
  }
  return { idleMs, absoluteMs };
}

/** UPLOAD_QUOTA_MB: megabytes (MiB, as the messages count them), 2048 when unset. */
function readUploadQuota(env: Env): number {
  const raw = read(env, 'UPLOAD_QUOTA_MB');
  if (raw === undefined) return 2048 * MIB;
  const mb = Number(raw);
  if (!/^\d+$/.test(raw) || mb < MIN_UPLOAD_QUOTA_MB || mb > MAX_UPLOAD_QUOTA_MB) {
    throw new ConfigError(
      'UPLOAD_QUOTA_MB',
      `must be a whole number of megabytes from ${MIN_UPLOAD_QUOTA_MB} (one file of the largest size) to ${MAX_UPLOAD_QUOTA_MB} (1 TB), but is "${raw}".`,
    );
  }
  return mb * MIB;
}

function readOidc(env: Env): OidcConfig | undefined {
  const issuer = readUrl(env, 'OIDC_ISSUER', ['http', 'https']);
  if (issuer === undefined) return undefined;
  const allowHttp = readBoolean(env, 'OIDC_ALLOW_HTTP', false);
  if (issuer.startsWith('http://') && !allowHttp) {
    throw new ConfigError(
      'OIDC_ISSUER',
      'must start with https:// (OIDC_ALLOW_HTTP=true allows http:// for local testing only).',
    );
  }
  const clientId = read(env, 'OIDC_CLIENT_ID');
  if (!clientId) throw new ConfigError('OIDC_CLIENT_ID', 'must be set when OIDC_ISSUER is set.');
  const clientSecret = read(env, 'OIDC_CLIENT_SECRET');
  if (!clientSecret)
    throw new ConfigError('OIDC_CLIENT_SECRET', 'must be set when OIDC_ISSUER is set.');
  return {
    issuer,
    clientId,
    clientSecret,
    displayName: read(env, 'OIDC_DISPLAY_NAME') ?? 'Australian Access Federation',
    scopes: (
      read(env, 'OIDC_SCOPES') ??
      'openid profile email eduperson_scoped_affiliation schac_home_organization'
    ).split(/\s+/),
    allowHttp,
  };
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, but is "${raw}".`);
}

/** proxy-addr's names for the private ranges, which Fastify accepts beside addresses. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const TRUST_PROXY_HELP =
  'Write the addresses of the proxies in front of Merit, comma-separated: TRUST_PROXY=10.0.0.2, a range such as 10.0.1.0/24, or loopback for a proxy on this machine; or, when clients can reach Merit only through its proxies, how many there are: TRUST_PROXY=1 for one.';

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Proxy addresses, or a hop count. `true` believes whatever X-Forwarded-For a client
 * sends. A count n believes the last n entries, which the n proxies in front of Merit
 * appended; a client cannot forge those, provided it cannot bypass the proxies and
 * connect directly (an address list holds even then).
 */
function readTrustProxy(env: Env): Config['trustProxy'] {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || ['false', 'no', 'off', '0'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) {
    throw new ConfigError(
      'TRUST_PROXY',
      `cannot be "${raw}": that would trust any X-Forwarded-For header, so a client could choose its own address and get past the per-address limits. ${TRUST_PROXY_HELP}`,
    );
  }
  if (/^\d+$/.test(raw)) {
    // More hops than any real chain of proxies: a larger count is more likely a typo.
    if (!/^([1-9]|10)$/.test(raw)) {
      throw new ConfigError(
        'TRUST_PROXY',
        `as a number of proxies must be a whole number from 1 to 10, but is "${raw}". ${TRUST_PROXY_HELP}`,
      );
    }
    return Number(raw);
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must list proxy addresses, but "${wrong}" is not an IP address, a range or loopback, linklocal or uniquelocal. ${TRUST_PROXY_HELP}`,
    );
  }
  return entries;
}

/**
 * S3_URL (`https://KEY:SECRET@host:port/bucket`) or the usual variables: S3_BUCKET with
 * S3_ENDPOINT (unset for AWS), S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (unset: the AWS
 * SDK's own chain, such as an instance role). S3_REGION defaults to us-east-1.
 */
function readS3(env: Env): S3Config | undefined {
  const region = read(env, 'S3_REGION') ?? 'us-east-1';
  const raw = readUrl(env, 'S3_URL', ['http', 'https']);
  if (raw !== undefined) {
    const url = new URL(raw);
    const bucket = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
    if (!bucket || bucket.includes('/')) {
      throw new ConfigError(
        'S3_URL',
        'must name the bucket as its path: https://KEY:SECRET@host/bucket.',
      );
    }
    return {
      endpoint: `${url.protocol}//${url.host}`,
      region,
      bucket,
      accessKeyId: url.username ? decodeURIComponent(url.username) : undefined,
      secretAccessKey: url.password ? decodeURIComponent(url.password) : undefined,
    };
  }
  const bucket = read(env, 'S3_BUCKET');
  if (bucket === undefined) {
    const stray = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].find(
      (name) => read(env, name) !== undefined,
    );
    if (stray) throw new ConfigError('S3_BUCKET', `must be set too when ${stray} is set.`);
    return undefined;
  }
  return {
    endpoint: readUrl(env, 'S3_ENDPOINT', ['http', 'https']),
    region,
    bucket,
    accessKeyId: read(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: read(env, 'S3_SECRET_ACCESS_KEY'),
  };
}

/** Each kind's setting and default, per 5 minutes: well past what a committee's own use causes. */
const ALERT_SETTINGS: Record<AlertKind, { name: string; fallback: number }> = {
  login_failed: { name: 'ALERT_FAILED_LOGINS', fallback: 50 },
  access_refused: { name: 'ALERT_REFUSED_REQUESTS', fallback: 200 },
  rate_limited: { name: 'ALERT_RATE_LIMITED', fallback: 100 },
  server_error: { name: 'ALERT_SERVER_ERRORS', fallback: 10 },
};

function readAlerts(env: Env): AlertSettings {
  const thresholds = {} as Record<AlertKind, number>;
  for (const [kind, { name, fallback }] of Object.entries(ALERT_SETTINGS)) {
    const raw = read(env, name);
    if (raw !== undefined && !/^\d+$/.test(raw)) {
      throw new ConfigError(
        name,
        `must be a whole number of events per 5 minutes (0 turns this alert off), but is "${raw}".`,
      );
    }
    thresholds[kind as AlertKind] = raw === undefined ? fallback : Number(raw);
  }
  const emails = (read(env, 'ALERT_EMAILS') ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
  const wrong = emails.find((address) => !/^[^\s@]+@[^\s@]+$/.test(address));
  if (wrong !== undefined) {
    throw new ConfigError(
      'ALERT_EMAILS',
      `must list email addresses, comma-separated, but "${wrong}" is not one.`,
    );
  }
  return { thresholds, emails };
}

function readClamd(env: Env): ClamdAddress | undefined {
  const raw = read(env, 'CLAMD_URL');
  if (raw === undefined) return undefined;
  const address = parseClamdUrl(raw);
  if (typeof address === 'string')
    throw new ConfigError('CLAMD_URL', `${address}, but is "${raw}".`);
  return address;
}

/** The longest retention period a setting takes: 100 years, past which a number is a typo. */
const RETENTION_DAYS_MAX = 36_500;

/**
 * SESSION_RETENTION_DAYS (0 and up: 0 deletes an ended session at the next hourly run) and
 * AUDIT_RETENTION_DAYS (unset keeps the audit log; at least 1 when set).
 */
function readRetention(env: Env): RetentionSettings {
  const days = (name: string, min: number, meaning: string): number | undefined => {
    const raw = read(env, name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > RETENTION_DAYS_MAX) {
      throw new ConfigError(
        name,
        `must be a whole number of days from ${min} to ${RETENTION_DAYS_MAX}, but is "${raw}". ${meaning}`,
      );
    }
    return value;
  };
  return {
    sessionDays:
      days(
        'SESSION_RETENTION_DAYS',
        0,
        'It is how long the record of a login (its browser and times) is kept after the login ended.',
      ) ?? DEFAULT_RETENTION.sessionDays,
    auditDays:
      days(
        'AUDIT_RETENTION_DAYS',
        1,
        'It is how long audit log entries are kept; leave it unset to keep them.',
      ) ?? DEFAULT_RETENTION.auditDays,
  };
}

/** SECRET_KEY; a wrong one is refused without repeating it, since it is a secret. */
function readSecretKey(env: Env): ServerSecret | undefined {
  const raw = read(env, 'SECRET_KEY');
  if (raw === undefined) return undefined;
  const parsed = parseSecretKey(raw);
  if (!(parsed instanceof ServerSecret)) {
    throw new ConfigError('SECRET_KEY', `${SECRET_KEY_RULE}, but ${parsed.problem}.`);
  }
  return parsed;
}

function readInitialAdmin(env: Env): Config['initialAdmin'] {
  const names = ['INITIAL_ADMIN_USERNAME', 'INITIAL_ADMIN_EMAIL', 'INITIAL_ADMIN_PASSWORD'];
  const [username, email, password] = names.map((n) => read(env, n));
  if (username === undefined && email === undefined && password === undefined) return undefined;
  const missing = names.find((n) => read(env, n) === undefined);
  if (missing) {
    throw new ConfigError(missing, 'must be set too when any INITIAL_ADMIN_* variable is set.');
  }
  if (password!.length < MIN_PASSWORD_LENGTH) {
    throw new ConfigError(
      'INITIAL_ADMIN_PASSWORD',
      `must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
    );
  }
  if (!email!.includes('@')) {
    throw new ConfigError('INITIAL_ADMIN_EMAIL', `must be an email address, but is "${email}".`);
  }
  return { username: username!, email: email!, password: password! };
}

export function loadConfig(env: Env = process.env): Config {
  const port = readPort(env);
  const logLevel = readChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info');
  const publicUrl = readUrl(env, 'PUBLIC_URL', ['http', 'https']);
  return {
    port,
    host: read(env, 'HOST') ?? '0.0.0.0',
    dataDir: path.resolve(read(env, 'DATA_DIR') ?? './data'),
    databaseUrl: readUrl(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    databaseStatementTimeoutMs: readPositiveInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000),
    publicUrl: (publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    publicUrlIsDefault: publicUrl === undefined,
    logLevel: logLevel as Config['logLevel'],
    initialAdmin: readInitialAdmin(env),
    webDir: path.resolve(read(env, 'WEB_DIR') ?? path.join(repoRoot, 'apps/web/dist')),
    manualPath: path.resolve(
      read(env, 'MANUAL_PATH') ?? path.join(repoRoot, 'docs/dist/manual.pdf'),
    ),
    trustProxy: readTrustProxy(env),
    smtpUrl: readUrl(env, 'SMTP_URL', ['smtp', 'smtps']),
    mailFrom: read(env, 'MAIL_FROM') ?? 'Merit <no-reply@localhost>',
    session: readSessionPolicy(env),
    authRateLimitPerIp: readPositiveInt(env, 'AUTH_RATE_LIMIT_PER_IP', 300),
    // Two files of the spec's largest upload (26214400 bytes each).
    extractAttachmentsMaxBytes: readPositiveInt(env, 'EXTRACT_ATTACHMENTS_MAX_BYTES', 52_428_800),
    // Two at most by default: an extract keeps a core busy for its second or two, and the
    // budgets' machine has two, which requests need too.
    pdfWorkers: readPositiveInt(env, 'PDF_WORKERS', Math.min(2, availableParallelism())),
    // 2 GB: eighty of the largest uploads. At least 25 MB, or one such file could never fit.
    uploadQuotaBytes: readUploadQuota(env),
    clamd: readClamd(env),
    oidc: readOidc(env),
    s3: readS3(env),
    privacyNoticeUrl: readUrl(env, 'PRIVACY_NOTICE_URL', ['http', 'https']),
    alerts: readAlerts(env),
    secretKey: readSecretKey(env),
    adminTwoFactor: readChoice(env, 'ADMIN_TWO_FACTOR', ADMIN_TWO_FACTOR_SETTINGS, 'optional'),
    retention: readRetention(env),
  };
}
