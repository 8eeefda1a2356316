import { describe, expect, it } from 'vitest';
import { loginPath, safeNext } from './safe-next';

describe('safeNext', () => {
  it.each([
    ['a plain path', '/calls', '/calls'],
    ['a path with query and hash', '/calls/3/?tab=2#top', '/calls/3/?tab=2#top'],
    ['the root', '/', '/'],
    ['dot segments, normalised', '/calls/../users', '/users'],
  ])('keeps %s', (_name, raw, expected) => {
    expect(safeNext(raw)).toBe(expected);
  });

  it.each([
    ['nothing', null],
    ['an empty string', ''],
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/path'],
    ['a backslash host', '/\\evil.example'],
    ['a tab inside the slashes', '/\t/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path without a slash', 'calls'],
    ['the login page itself', '/auth/login?next=%2Fcalls'],
  ])('refuses %s', (_name, raw) => {
    expect(safeNext(raw)).toBeNull();
  });
});

describe('loginPath', () => {
  it('carries the original path and query as next', () => {
    expect(loginPath('/calls?page=2')).toBe('/auth/login?next=%2Fcalls%3Fpage%3D2');
  });

  it('leaves next out when there is nowhere better than the dashboard to return to', () => {
    expect(loginPath('/')).toBe('/auth/login');
    expect(loginPath(undefined)).toBe('/auth/login');
    expect(loginPath('//evil.example')).toBe('/auth/login');
  });
});
