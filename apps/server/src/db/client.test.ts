import { userInfo } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withDefaultUser } from './client.js';

describe('withDefaultUser', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('names the operating system user, as psql does, when nothing else names one', () => {
    vi.stubEnv('USER', '');
    vi.stubEnv('PGUSER', '');
    expect(withDefaultUser('postgres://localhost:5432/merit')).toBe(
      `postgres://${userInfo().username}@localhost:5432/merit`,
    );
  });

  it.each([
    ['the URL names a user', 'postgres://merit:secret@localhost:5432/merit', {}],
    ['$USER is set', 'postgres://localhost:5432/merit', { USER: 'alice' }],
    ['$PGUSER is set', 'postgres://localhost:5432/merit', { PGUSER: 'alice' }],
  ])('leaves the URL alone when %s', (_when, url, env: Record<string, string>) => {
    vi.stubEnv('USER', env.USER ?? '');
    vi.stubEnv('PGUSER', env.PGUSER ?? '');
    expect(withDefaultUser(url)).toBe(url);
  });
});
