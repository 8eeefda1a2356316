import type { SecurityKey, SecurityKeyAssertion, SecurityKeyRegistration } from '@merit/contract';
import {
  MAX_SECURITY_KEYS,
  SECURITY_KEY_CHALLENGE_TTL_MS,
  securityKeyMessages,
} from '@merit/domain';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { createHmac } from 'node:crypto';
import type { Tx } from '../../db/client.js';
import { securityKeyChallenges, securityKeys, userTwoFactor } from '../../db/schema.js';
import { conflict, notFound } from '../../platform/http/http-errors.js';
import { digestKey } from '../../platform/security/secrets.js';
import type { ServerKeys } from '../../platform/security/server-key.js';
import type { UserRow } from '../users/users.queries.js';
import { requirePassword } from './two-factor.service.js';

/**
 * Security keys (WebAuthn, OWASP ASVS V2.3.2): a second way to take the second step of a
 * password login, beside the authenticator app. Never a login on their own: the password
 * comes first, and a key can be added only while two-step verification is on, whose
 * recovery codes are the way back in when a key is lost.
 */

/** The relying party Merit is to a key: the site of PUBLIC_URL. */
export interface RelyingParty {
  /** The host name keys are bound to (WebAuthn's RP ID). */
  id: string;
  /** The origin the browser must report the request came from. */
  origin: string;
  name: string;
}

export const relyingPartyOf = (publicUrl: string): RelyingParty => {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Merit' };
};

/**
 * The WebAuthn user handle of a user's keys: an HMAC of their id under a key derived from
 * the server secret. The same for each of the user's keys without being stored, and
 * nothing a key (which keeps it) could give away: not the id, the name or the address.
 * Merit never reads it back: a login names its user by the ticket, not by the handle.
 */
const userHandleOf = (keys: ServerKeys, userId: number) =>
  new Uint8Array(createHmac('sha256', keys.securityKeyUserKey).update(`user:${userId}`).digest());

type ChallengePurpose = 'register' | 'login';

const present = (row: typeof securityKeys.$inferSelect): SecurityKey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** The user's keys, oldest first. */
export async function listSecurityKeys(db: Tx, userId: number): Promise<SecurityKey[]> {
  const rows = await db
    .select()
    .from(securityKeys)
    .where(eq(securityKeys.userId, userId))
    .orderBy(asc(securityKeys.createdAt), asc(securityKeys.id));
  return rows.map(present);
}

export async function countSecurityKeys(db: Tx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(securityKeys)
    .where(eq(securityKeys.userId, userId));
  return row?.n ?? 0;
}

/** The credentials of the user's keys, as WebAuthn's options list them. */
async function credentialsOf(db: Tx, userId: number) {
  const rows = await db
    .select({ id: securityKeys.credentialId, transports: securityKeys.transports })
    .from(securityKeys)
    .where(eq(securityKeys.userId, userId))
    .orderBy(asc(securityKeys.id));
  return rows.map((row) => ({
    id: row.id,
    ...(row.transports.length > 0 ? { transports: row.transports } : {}),
  }));
}

/**
 * Adding a key is possible now: two-step verification is on (its row locked, so turning it
 * off waits for the key being added, and then removes it too) and the account has room.
 */
async function requireRoomForKey(db: Tx, userId: number): Promise<void> {
  const [row] = await db
    .select({ enabledAt: userTwoFactor.enabledAt })
    .from(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId))
    .for('update');
  if (!row?.enabledAt) throw conflict(securityKeyMessages.needsTwoFactor);
  if ((await countSecurityKeys(db, userId)) >= MAX_SECURITY_KEYS)
    throw conflict(securityKeyMessages.tooMany);
}

/** Keeps a new challenge, in place of the user's (or the ticket's) previous one. */
async function storeChallenge(
  db: Tx,
  userId: number,
  purpose: ChallengePurpose,
  ticketHash: string | null,
  challenge: string,
  now: Date,
): Promise<void> {
  const values = {
    challenge,
    expiresAt: new Date(now.getTime() + SECURITY_KEY_CHALLENGE_TTL_MS),
  };
  const insert = db
    .insert(securityKeyChallenges)
    .values({ userId, purpose, ticketHash, ...values });
  await (purpose === 'register'
    ? insert.onConflictDoUpdate({
        target: securityKeyChallenges.userId,
        targetWhere: sql`${securityKeyChallenges.purpose} = 'register'`,
        set: values,
      })
    : insert.onConflictDoUpdate({ target: securityKeyChallenges.ticketHash, set: values }));
}

/**
 * Takes the challenge a key's answer must be to: it is deleted whatever the answer turns out
 * to be, so each request to a key is answered once. Null when there is none or it expired.
 */
async function takeChallenge(
  db: Tx,
  where: { userId: number; purpose: 'register' } | { ticketHash: string; purpose: 'login' },
  now: Date,
): Promise<string | null> {
  const [row] = await db
    .delete(securityKeyChallenges)
    .where(
      'userId' in where
        ? and(
            eq(securityKeyChallenges.userId, where.userId),
            eq(securityKeyChallenges.purpose, 'register'),
          )
        : eq(securityKeyChallenges.ticketHash, where.ticketHash),
    )
    .returning({
      challenge: securityKeyChallenges.challenge,
      expiresAt: securityKeyChallenges.expiresAt,
    });
  return row && row.expiresAt > now ? row.challenge : null;
}

/**
 * The request to a new key (navigator.credentials.create), after the current password: its
 * challenge is kept for SECURITY_KEY_CHALLENGE_TTL_MS, and the user's keys are excluded so
 * one key is not added twice.
 */
export async function registrationOptions(
  db: Tx,
  user: UserRow,
  password: string,
  now: Date,
  keys: ServerKeys,
  rp: RelyingParty,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  await requirePassword(user, password, keys);
  await requireRoomForKey(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.username,
    userID: userHandleOf(keys, user.id),
    timeout: SECURITY_KEY_CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: await credentialsOf(db, user.id),
    // A second factor: the key's touch (presence) is what is asked. Nothing needs to be
    // stored on the key, whose places for that are few.
    authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
  });
  await storeChallenge(db, user.id, 'register', null, options.challenge, now);
  return options;
}

/** Why a key's answer was refused: no live request to answer, or an answer that does not hold. */
export type SecurityKeyRefusal = 'expired' | 'notVerified';

/**
 * Adds the key that answered the user's last request. The request is used up either way;
 * a refusal is returned rather than thrown, so that is kept when the caller refuses.
 */
export async function addSecurityKey(
  db: Tx,
  userId: number,
  input: { name: string; credential: SecurityKeyRegistration },
  now: Date,
  rp: RelyingParty,
): Promise<{ key: SecurityKey } | { refused: SecurityKeyRefusal }> {
  await requireRoomForKey(db, userId);
  const challenge = await takeChallenge(db, { userId, purpose: 'register' }, now);
  if (!challenge) return { refused: 'expired' };
  let credential;
  try {
    const verified = await verifyRegistrationResponse({
      response: {
        ...input.credential,
        clientExtensionResults: input.credential.clientExtensionResults ?? {},
      },
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!verified.verified) return { refused: 'notVerified' };
    credential = verified.registrationInfo.credential;
  } catch {
    // The library throws for each way an answer is malformed or foreign (origin, RP ID,
    // challenge, type, attestation): all are one refusal to the user.
    return { refused: 'notVerified' };
  }
  const [taken] = await db
    .select({ id: securityKeys.id })
    .from(securityKeys)
    .where(eq(securityKeys.credentialId, credential.id));
  if (taken) return { refused: 'notVerified' };
  const [row] = await db
    .insert(securityKeys)
    .values({
      userId,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: input.name,
      createdAt: now,
    })
    .returning();
  return { key: present(row!) };
}

/** Removes one of the user's keys; another user's, or none, is not found. Returns its name. */
export async function removeSecurityKey(db: Tx, userId: number, keyId: number): Promise<string> {
  const [row] = await db
    .delete(securityKeys)
    .where(and(eq(securityKeys.id, keyId), eq(securityKeys.userId, userId)))
    .returning({ name: securityKeys.name });
  if (!row) throw notFound(securityKeyMessages.notFound);
  return row.name;
}

/**
 * The request to the user's keys for a login's second step (navigator.credentials.get),
 * bound to the login's ticket, whose row the caller holds; null when the user has no key.
 */
export async function loginOptions(
  db: Tx,
  userId: number,
  ticket: string,
  now: Date,
  rp: RelyingParty,
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const allowCredentials = await credentialsOf(db, userId);
  if (allowCredentials.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials,
    timeout: SECURITY_KEY_CHALLENGE_TTL_MS,
    userVerification: 'discouraged',
  });
  await storeChallenge(db, userId, 'login', digestKey(ticket), options.challenge, now);
  return options;
}

/**
 * What a key's answer at a login was: right (`ok`, with the key), refused, or signed by
 * the key but with a signature counter that did not go forward (`counter`, refused: the
 * key may have been copied).
 */
export type AssertionCheck =
  | { ok: true; keyId: number }
  | { ok: false; refused: SecurityKeyRefusal; counter?: { keyId: number } };

/**
 * Checks a key's answer to the ticket's request: the request is used up, and the key must
 * be one of the user's. The caller holds the ticket's row.
 */
export async function checkAssertion(
  db: Tx,
  userId: number,
  ticket: string,
  credential: SecurityKeyAssertion,
  now: Date,
  rp: RelyingParty,
): Promise<AssertionCheck> {
  const challenge = await takeChallenge(
    db,
    { ticketHash: digestKey(ticket), purpose: 'login' },
    now,
  );
  if (!challenge) return { ok: false, refused: 'expired' };
  const [key] = await db
    .select()
    .from(securityKeys)
    .where(and(eq(securityKeys.credentialId, credential.id), eq(securityKeys.userId, userId)))
    .for('update');
  if (!key) return { ok: false, refused: 'notVerified' };
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response: {
        ...credential,
        clientExtensionResults: credential.clientExtensionResults ?? {},
      },
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      // The library would refuse a counter that does not go forward before it checks the
      // signature; checked below instead, after it, so that only an answer the key really
      // signed is logged as a possibly copied key.
      credential: {
        id: key.credentialId,
        publicKey: key.publicKey,
        counter: 0,
        transports: key.transports,
      },
    });
    if (!verified.verified) return { ok: false, refused: 'notVerified' };
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    return { ok: false, refused: 'notVerified' };
  }
  // WebAuthn §6.1.1: a key that counts (either value not zero) counts up at every use.
  if ((newCounter > 0 || key.counter > 0) && newCounter <= key.counter)
    return { ok: false, refused: 'notVerified', counter: { keyId: key.id } };
  await db
    .update(securityKeys)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(eq(securityKeys.id, key.id));
  return { ok: true, keyId: key.id };
}
