/**
 * Whether this browser can talk to a security key at all (WebAuthn): the test of
 * @simplewebauthn/browser's browserSupportsWebAuthn(), written out. Importing that one
 * function brings the whole library (3 KB gzipped) into the login page, whose JavaScript
 * budget is tight; the page loads the ceremonies (security-key-ceremony.ts) only when a
 * key is used.
 */
export function securityKeysSupported(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function';
}
