import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults to port 3000, ./data and the embedded database', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.databaseStatementTimeoutMs).toBe(30_000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.initialAdmin).toBeUndefined();
    expect(config.trustProxy).toBe(false);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({
      publicUrl: 'http://localhost:8080',
      publicUrlIsDefault: true,
    });
    expect(loadConfig({ PUBLIC_URL: 'https://merit.example.org/' })).toMatchObject({
      publicUrl: 'https://merit.example.org',
      publicUrlIsDefault: false,
    });
  });

  it('reads DATABASE_STATEMENT_TIMEOUT_MS as a whole number of milliseconds', () => {
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '5000' }).databaseStatementTimeoutMs).toBe(
      5000,
    );
    expect(errorOf({ DATABASE_STATEMENT_TIMEOUT_MS: '5s' }).message).toBe(
      'DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of at least 1, but is "5s".',
    );
  });

  it.each([
    ['abc', 'PORT'],
    ['0', 'PORT'],
    ['70000', 'PORT'],
    ['30.5', 'PORT'],
  ])('refuses PORT=%s with a message naming %s', (port, variable) => {
    const error = errorOf({ PORT: port });
    expect(error.variable).toBe(variable);
    expect(error.message).toBe(`PORT must be a whole number from 1 to 65535, but is "${port}".`);
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL', () => {
    expect(errorOf({ DATABASE_URL: 'mysql://localhost/db' }).message).toMatch(
      /^DATABASE_URL must start with postgres:\/\//,
    );
    expect(errorOf({ DATABASE_URL: 'not a url' }).variable).toBe('DATABASE_URL');
  });

  it('accepts postgres:// and postgresql:// URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h:5432/d' }).databaseUrl).toBe(
      'postgresql://u@h:5432/d',
    );
  });

  it('needs all three INITIAL_ADMIN_* variables together', () => {
    const error = errorOf({
      INITIAL_ADMIN_USERNAME: 'root',
      INITIAL_ADMIN_PASSWORD: 'long enough now',
    });
    expect(error.variable).toBe('INITIAL_ADMIN_EMAIL');
  });

  it('refuses an initial admin password of 11 characters, and takes one of 12', () => {
    const admin = { INITIAL_ADMIN_USERNAME: 'root', INITIAL_ADMIN_EMAIL: 'root@example.org' };
    const error = errorOf({ ...admin, INITIAL_ADMIN_PASSWORD: 'x'.repeat(11) });
    expect(error.variable).toBe('INITIAL_ADMIN_PASSWORD');
    expect(error.message).toContain('must be at least 12 characters long.');
    const password = 'x'.repeat(12);
    expect(loadConfig({ ...admin, INITIAL_ADMIN_PASSWORD: password }).initialAdmin).toEqual({
      username: 'root',
      email: 'root@example.org',
      password,
    });
  });

  it('refuses an unknown LOG_LEVEL', () => {
    expect(errorOf({ LOG_LEVEL: 'loud' }).variable).toBe('LOG_LEVEL');
  });
});

describe('TRUST_PROXY', () => {
  const help =
    'Write the addresses of the proxies in front of Merit, comma-separated: TRUST_PROXY=10.0.0.2, a range such as 10.0.1.0/24, or loopback for a proxy on this machine; or, when clients can reach Merit only through its proxies, how many there are: TRUST_PROXY=1 for one.';

  it.each([
    ['', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10', 10],
    ['10.0.0.2', ['10.0.0.2']],
    ['10.0.0.2, 10.0.1.0/24,fd00::/8', ['10.0.0.2', '10.0.1.0/24', 'fd00::/8']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads %j as %j', (raw, trustProxy) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(trustProxy);
  });

  it.each(['true', 'TRUE', 'yes', 'on'])(
    'refuses %s, which would let a client name its own address, and says what to write',
    (raw) => {
      expect(errorOf({ TRUST_PROXY: raw }).message).toBe(
        `TRUST_PROXY cannot be "${raw}": that would trust any X-Forwarded-For header, so a client could choose its own address and get past the per-address limits. ${help}`,
      );
    },
  );

  it.each(['11', '100', '01', '00'])(
    'refuses the hop count %s: a whole number from 1 to 10, written plainly',
    (raw) => {
      expect(errorOf({ TRUST_PROXY: raw }).message).toBe(
        `TRUST_PROXY as a number of proxies must be a whole number from 1 to 10, but is "${raw}". ${help}`,
      );
    },
  );

  it.each([
    ['maybe', 'maybe'],
    ['10.0.0.2,proxy.example.org', 'proxy.example.org'],
    ['10.0.0.0/33', '10.0.0.0/33'],
    ['10.0.0.0/8/1', '10.0.0.0/8/1'],
    ['10.0.0.2,', ''],
  ])('refuses %j, naming %j', (raw, wrong) => {
    expect(errorOf({ TRUST_PROXY: raw }).message).toBe(
      `TRUST_PROXY must list proxy addresses, but "${wrong}" is not an IP address, a range or loopback, linklocal or uniquelocal. ${help}`,
    );
  });
});

describe('S3 storage for files', () => {
  it('is off unless configured: files stay on disk', () => {
    expect(loadConfig({}).s3).toBeUndefined();
  });

  it('reads S3_URL with its keys and bucket, and the region apart', () => {
    expect(
      loadConfig({
        S3_URL: 'https://AK%2B1:s%2Fecret@s3.example.org:9000/merit-files',
        S3_REGION: 'eu-west-1',
      }).s3,
    ).toEqual({
      endpoint: 'https://s3.example.org:9000',
      region: 'eu-west-1',
      bucket: 'merit-files',
      accessKeyId: 'AK+1',
      secretAccessKey: 's/ecret',
    });
  });

  it('refuses an S3_URL without a bucket', () => {
    expect(errorOf({ S3_URL: 'https://s3.example.org' }).variable).toBe('S3_URL');
  });

  it('reads the usual S3_* variables, and needs S3_BUCKET with them', () => {
    expect(loadConfig({ S3_BUCKET: 'merit', S3_ENDPOINT: 'http://127.0.0.1:9000' }).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'merit',
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
    expect(errorOf({ S3_ACCESS_KEY_ID: 'key' }).message).toBe(
      'S3_BUCKET must be set too when S3_ACCESS_KEY_ID is set.',
    );
  });
});

describe('SESSION_MAX_AGE_HOURS and SESSION_IDLE_MINUTES', () => {
  const HOUR = 3_600_000;
  const MINUTE = 60_000;

  it('default to ASVS level 2: 12 hours after login, 2 hours unused', () => {
    expect(loadConfig({}).session).toEqual({ absoluteMs: 12 * HOUR, idleMs: 2 * HOUR });
  });

  it.each([
    [{ SESSION_MAX_AGE_HOURS: '8' }, { absoluteMs: 8 * HOUR, idleMs: 2 * HOUR }],
    [{ SESSION_IDLE_MINUTES: '30' }, { absoluteMs: 12 * HOUR, idleMs: 30 * MINUTE }],
    [
      { SESSION_MAX_AGE_HOURS: '720', SESSION_IDLE_MINUTES: '20160' },
      { absoluteMs: 720 * HOUR, idleMs: 20_160 * MINUTE },
    ],
    // The default idle limit would outlast a one-hour session: the age bounds it.
    [{ SESSION_MAX_AGE_HOURS: '1' }, { absoluteMs: HOUR, idleMs: HOUR }],
    [
      { SESSION_MAX_AGE_HOURS: '1', SESSION_IDLE_MINUTES: '5' },
      { absoluteMs: HOUR, idleMs: 5 * MINUTE },
    ],
  ])('reads %j', (env, session) => {
    expect(loadConfig(env).session).toEqual(session);
  });

  it.each(['0', '721', '1.5', '12h', '-1'])('refuses SESSION_MAX_AGE_HOURS=%s', (raw) => {
    const error = errorOf({ SESSION_MAX_AGE_HOURS: raw });
    expect(error.variable).toBe('SESSION_MAX_AGE_HOURS');
    expect(error.message).toBe(
      `SESSION_MAX_AGE_HOURS must be a whole number of hours from 1 to 720, but is "${raw}". 12 or less meets ASVS level 2.`,
    );
  });

  it.each([
    [{ SESSION_IDLE_MINUTES: '4' }, '4', 720],
    [{ SESSION_IDLE_MINUTES: '30m' }, '30m', 720],
    [{ SESSION_IDLE_MINUTES: '721' }, '721', 720],
    [{ SESSION_MAX_AGE_HOURS: '2', SESSION_IDLE_MINUTES: '121' }, '121', 120],
  ])('refuses %j', (env, raw, max) => {
    const error = errorOf(env);
    expect(error.variable).toBe('SESSION_IDLE_MINUTES');
    expect(error.message).toBe(
      `SESSION_IDLE_MINUTES must be a whole number of minutes from 5 to ${max} (the session's maximum age, SESSION_MAX_AGE_HOURS), but is "${raw}".`,
    );
  });
});

describe('ALERT_* settings (ASVS V8.1.4)', () => {
  it('default to 50 failed logins, 200 refusals, 100 rate-limited and 10 server errors per 5 minutes', () => {
    expect(loadConfig({}).alerts).toEqual({
      thresholds: { login_failed: 50, access_refused: 200, rate_limited: 100, server_error: 10 },
      emails: [],
    });
  });

  it('read each threshold, 0 turning one off, and a list of extra addresses', () => {
    const { alerts } = loadConfig({
      ALERT_FAILED_LOGINS: '20',
      ALERT_REFUSED_REQUESTS: '0',
      ALERT_RATE_LIMITED: '30',
      ALERT_SERVER_ERRORS: '3',
      ALERT_EMAILS: ' ops@example.org, security@example.org ,',
    });
    expect(alerts).toEqual({
      thresholds: { login_failed: 20, access_refused: 0, rate_limited: 30, server_error: 3 },
      emails: ['ops@example.org', 'security@example.org'],
    });
  });

  it.each(['ten', '-1', '2.5'])('refuses ALERT_SERVER_ERRORS=%s, naming it', (value) => {
    expect(errorOf({ ALERT_SERVER_ERRORS: value }).message).toBe(
      `ALERT_SERVER_ERRORS must be a whole number of events per 5 minutes (0 turns this alert off), but is "${value}".`,
    );
  });

  it('refuses an ALERT_EMAILS entry that is not an address', () => {
    expect(errorOf({ ALERT_EMAILS: 'ops@example.org, security' }).message).toBe(
      'ALERT_EMAILS must list email addresses, comma-separated, but "security" is not one.',
    );
  });
});

describe('ADMIN_TWO_FACTOR (ASVS V4.3.1)', () => {
  it('defaults to optional and takes required', () => {
    expect(loadConfig({}).adminTwoFactor).toBe('optional');
    expect(loadConfig({ ADMIN_TWO_FACTOR: 'required' }).adminTwoFactor).toBe('required');
  });

  it('refuses any other value, naming the ones it takes', () => {
    const error = errorOf({ ADMIN_TWO_FACTOR: 'yes' });
    expect(error.variable).toBe('ADMIN_TWO_FACTOR');
    expect(error.message).toContain('optional, required');
  });
});
