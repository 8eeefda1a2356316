import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Invitation links (issue 30): `<committee id>.<signature>`, the signature an HMAC-SHA-256
 * of the id under the server's invitation key. The token names its committee to whoever
 * opens the link and grants nothing: the account registers and verifies as any other, and
 * is given roles by an administrator. Signed rather than stored, so nothing is kept per
 * link, and a token made up or changed by hand names no committee (no enumeration).
 */
const signatureOf = (key: Buffer, committeeId: number) =>
  createHmac('sha256', key).update(`invitation:committee:${committeeId}`).digest('base64url');

export function invitationToken(key: Buffer, committeeId: number): string {
  return `${committeeId}.${signatureOf(key, committeeId)}`;
}

/** The committee id a token was signed for, or null for anything else. */
export function invitedCommitteeId(key: Buffer, token: string): number | null {
  const match = /^([1-9][0-9]{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const committeeId = Number(match[1]);
  if (!Number.isSafeInteger(committeeId)) return null;
  const expected = Buffer.from(signatureOf(key, committeeId));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? committeeId : null;
}
