// Any origin works: it only anchors relative paths so the URL parser can tell whether
// a value would leave the site. `.invalid` can never resolve (RFC 2606).
const PROBE_ORIGIN = 'https://merit.invalid';

/**
 * A `next` value as a same-origin path, or null when it is missing or could send the
 * user elsewhere (an open redirect): absolute URLs, protocol-relative `//host`,
 * backslash tricks and schemes like `javascript:` are all refused.
 */
export function safeNext(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  // Coming back to the login page after logging in would loop.
  if (url.pathname.replace(/\/+$/, '') === '/auth/login') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
