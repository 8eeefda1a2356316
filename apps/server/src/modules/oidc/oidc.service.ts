import type { CompleteRegistrationRequest } from '@merit/contract';
import {
  checkPrivacyConsent,
  hasErrors,
  MAX_LENGTHS,
  validateRegistrationCompletion,
} from '@merit/domain';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { loginCodes, oidcStates, userIdentities, users } from '../../db/schema.js';
import { conflict, invalid } from '../../platform/http/http-errors.js';
import { digestKey, newTokenKey } from '../../platform/security/secrets.js';
import type { Work } from '../../platform/data/work.js';
import { createUser, type UserRow } from '../users/users.queries.js';

/** A login must come back from the provider within this time. */
export const OIDC_STATE_TTL_MS = 10 * 60 * 1000;
/** The web app exchanges the login code at once; a minute is plenty. */
export const LOGIN_CODE_TTL_MS = 60 * 1000;

/** Why a federated login failed; the web app's error page explains each. */
export type OidcFailure =
  'state' | 'provider' | 'token' | 'claims' | 'email-in-use' | 'identity-in-use' | 'inactive';

export class OidcLoginError extends Error {
  constructor(
    readonly reason: OidcFailure,
    message: string,
  ) {
    super(message);
  }
}

export async function saveState(
  db: Tx,
  input: {
    state: string;
    nonce: string;
    codeVerifier: string;
    next: string;
    linkUserId: number | null;
  },
  now: Date,
): Promise<void> {
  await db.delete(oidcStates).where(lt(oidcStates.expiresAt, now));
  await db
    .insert(oidcStates)
    .values({ ...input, expiresAt: new Date(now.getTime() + OIDC_STATE_TTL_MS) });
}

/** Takes the saved login for `state`, once; a second callback with it finds nothing. */
export async function takeState(db: Tx, state: string, now: Date) {
  const [row] = await db
    .delete(oidcStates)
    .where(and(eq(oidcStates.state, state), gt(oidcStates.expiresAt, now)))
    .returning();
  return row;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** AAF releases eduPersonScopedAffiliation as a list or a ;-separated string. */
function affiliations(claims: Record<string, unknown>): string[] {
  const raw = claims.eduperson_scoped_affiliation ?? claims.eduPersonScopedAffiliation;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[;\s]+/) : [];
  return list.map((a) => String(a).toLowerCase());
}

export interface ProfileFromClaims {
  email: string;
  firstName: string;
  lastName: string;
  institution: string;
  isStudent: boolean;
}

export function profileFromClaims(claims: Record<string, unknown>): ProfileFromClaims {
  let firstName = str(claims.given_name);
  let lastName = str(claims.family_name);
  if (!firstName && !lastName && str(claims.name)) {
    const parts = str(claims.name).split(/\s+/);
    lastName = parts.length > 1 ? parts.pop()! : '';
    firstName = parts.join(' ');
  }
  return {
    email: str(claims.email),
    firstName: firstName.slice(0, MAX_LENGTHS.firstName),
    lastName: lastName.slice(0, MAX_LENGTHS.lastName),
    institution: (
      str(claims.schac_home_organization) ||
      str(claims.home_organization) ||
      str(claims.o)
    ).slice(0, MAX_LENGTHS.institution),
    isStudent: affiliations(claims).some((a) => a.startsWith('student@') || a === 'student'),
  };
}

/** A username no one has, from the email address. */
async function freeUsername(db: Tx, email: string): Promise<string> {
  const base = email.replace(/[^A-Za-z0-9@._+-]/g, '').slice(0, MAX_LENGTHS.username - 4) || 'user';
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const taken = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.username})`, candidate.toLowerCase()))
      .limit(1);
    if (taken.length === 0) return candidate;
  }
}

/**
 * The account for a federated identity: the linked one, or a new one on first login.
 * Accounts are keyed by (issuer, subject) and never matched to a local account by email.
 */
export async function userForIdentity(
  db: Tx,
  issuer: string,
  claims: Record<string, unknown>,
  now: Date,
): Promise<UserRow> {
  const subject = str(claims.sub);
  const [linked] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
    .limit(1);
  if (linked) {
    if (!linked.user.isActive)
      throw new OidcLoginError('inactive', 'This account has been deactivated.');
    return linked.user;
  }
  const profile = profileFromClaims(claims);
  if (!profile.email)
    throw new OidcLoginError('claims', 'The identity provider did not release an email address.');
  const inUse = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, profile.email.toLowerCase()))
    .limit(1);
  if (inUse.length > 0) {
    throw new OidcLoginError('email-in-use', 'A Merit account already uses this email address.');
  }
  return db.transaction(async (tx) => {
    const user = await createUser(tx, {
      username: await freeUsername(tx, profile.email),
      email: profile.email,
      firstName: profile.firstName,
      lastName: profile.lastName,
      institution: profile.institution,
      isStudent: profile.isStudent,
      isAaf: true,
      emailVerified: true,
      registrationComplete: false,
      password: null,
    });
    await tx.insert(userIdentities).values({ userId: user.id, issuer, subject, createdAt: now });
    return user;
  });
}

/** Links a federated identity to a logged-in user's existing account. */
export async function linkIdentity(
  db: Tx,
  userId: number,
  issuer: string,
  subject: string,
  now: Date,
): Promise<void> {
  const [existing] = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
    .limit(1);
  if (existing && existing.userId !== userId) {
    throw new OidcLoginError(
      'identity-in-use',
      'This institutional login is already linked to another Merit account.',
    );
  }
  if (!existing)
    await db.insert(userIdentities).values({ userId, issuer, subject, createdAt: now });
}

export async function issueLoginCode(db: Tx, userId: number, now: Date): Promise<string> {
  const code = newTokenKey();
  await db.delete(loginCodes).where(lt(loginCodes.expiresAt, now));
  await db.insert(loginCodes).values({
    codeHash: digestKey(code),
    userId,
    expiresAt: new Date(now.getTime() + LOGIN_CODE_TTL_MS),
  });
  return code;
}

/** The user a login code was issued for, once; null when unknown, used or expired. */
export async function takeLoginCode(db: Tx, code: string, now: Date): Promise<number | null> {
  const [row] = await db
    .delete(loginCodes)
    .where(and(eq(loginCodes.codeHash, digestKey(code)), gt(loginCodes.expiresAt, now)))
    .returning();
  return row?.userId ?? null;
}

/**
 * Completes the caller's federated registration with what the provider did not release
 * (spec section 2). Only an incomplete registration can be completed: the condition makes
 * a second (or concurrent) completion a clear refusal instead of a quiet edit of the account.
 */
export async function completeRegistration(
  work: Work,
  input: Required<Omit<CompleteRegistrationRequest, 'privacy_consent'>> &
    Pick<CompleteRegistrationRequest, 'privacy_consent'>,
  privacyNoticeSet = false,
): Promise<UserRow> {
  const errors = validateRegistrationCompletion(input);
  // The same consent a registration asks for (ASVS V8.3.3), when the installation sets a notice.
  const consent = checkPrivacyConsent(privacyNoticeSet, input.privacy_consent);
  if (consent.length > 0) errors.privacy_consent = consent;
  if (hasErrors(errors)) throw invalid(errors);
  const [user] = await work.tx
    .update(users)
    .set({
      institution: input.institution.trim(),
      gender: input.gender_choice,
      phoneNumber: input.phone_number.trim(),
      isStudent: input.is_student,
      registrationComplete: true,
      ...(privacyNoticeSet ? { privacyConsentAt: work.now } : {}),
      updatedAt: work.now,
    })
    .where(and(eq(users.id, work.actor.id), eq(users.registrationComplete, false)))
    .returning();
  if (!user)
    throw conflict('Your registration is already complete. Change your details from My Account.');
  await work.audit({
    action: 'user.complete_registration',
    entityId: user.id,
    before: { registration_complete: false },
    after: {
      registration_complete: true,
      institution: user.institution,
      gender: user.gender,
      phone_number: user.phoneNumber,
      is_student: user.isStudent,
    },
  });
  return user;
}
