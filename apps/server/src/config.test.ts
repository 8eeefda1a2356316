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
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.initialAdmin).toBeUndefined();
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://merit.example.org/' }).publicUrl).toBe(
      'https://merit.example.org',
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
      INITIAL_ADMIN_PASSWORD: 'long enough',
    });
    expect(error.variable).toBe('INITIAL_ADMIN_EMAIL');
  });

  it('refuses a short initial admin password', () => {
    const error = errorOf({
      INITIAL_ADMIN_USERNAME: 'root',
      INITIAL_ADMIN_EMAIL: 'root@example.org',
      INITIAL_ADMIN_PASSWORD: 'short',
    });
    expect(error.variable).toBe('INITIAL_ADMIN_PASSWORD');
  });

  it('refuses an unknown LOG_LEVEL and a non-boolean TRUST_PROXY', () => {
    expect(errorOf({ LOG_LEVEL: 'loud' }).variable).toBe('LOG_LEVEL');
    expect(errorOf({ TRUST_PROXY: 'maybe' }).variable).toBe('TRUST_PROXY');
  });
});
