import { z } from 'zod';
import { dateTime } from './common.js';

export const loginRequest = z.object({
  username: z.string().min(1).max(150),
  password: z.string().min(1).max(1000),
  /** A solved ALTCHA challenge; needed once a username has had a few attempts (`captcha_required`). */
  captcha: z.string().max(5000).optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({ key: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

/**
 * POST /auth/login/ for an account with two-step verification on (beyond the spec): the
 * right password gives no key but a ticket, which POST /auth/login/two-factor/ takes with
 * a code. Accounts without it get exactly the spec's answer, `{ key }`.
 */
export const twoFactorRequiredResponse = z.object({
  twoFactorRequired: z.literal(true),
  /** Opaque; works once, for 5 minutes and at most 5 wrong codes. */
  ticket: z.string(),
  /** Whether the account has security keys, which POST /auth/login/security-key/ takes instead of a code. */
  securityKeys: z.boolean(),
});
export type TwoFactorRequiredResponse = z.infer<typeof twoFactorRequiredResponse>;
export const loginAnswer = z.union([loginResponse, twoFactorRequiredResponse]);
export type LoginAnswer = z.infer<typeof loginAnswer>;

/** A code as typed: 6 digits from the authenticator app, or a recovery code. */
const typedCode = z.string().trim().min(1).max(30);

/** POST /auth/login/two-factor/: the second step of a login. */
export const twoFactorLoginRequest = z.object({
  ticket: z.string().min(1).max(100),
  code: typedCode,
});
export type TwoFactorLoginRequest = z.infer<typeof twoFactorLoginRequest>;

/** GET /auth/two-factor/: whether it is on, and how many recovery codes are left. */
export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  enabledAt: dateTime.nullable(),
  recoveryCodesLeft: z.number().int(),
  /** How many security keys the account has (GET /auth/security-keys/ lists them). */
  securityKeys: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

/** POST /auth/two-factor/setup/: the current password, before a new key is made. */
export const twoFactorSetupRequest = z.object({ password: z.string().min(1).max(1000) });
export type TwoFactorSetupRequest = z.infer<typeof twoFactorSetupRequest>;

/** The new key, for the authenticator app: as text, and as the URI its QR code holds. */
export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponse>;

/** POST /auth/two-factor/confirm/: a code from the app proves it holds the key. */
export const twoFactorConfirmRequest = z.object({ code: typedCode });
export type TwoFactorConfirmRequest = z.infer<typeof twoFactorConfirmRequest>;

/** The recovery codes, shown this once; only their digests are kept. */
export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/** POST /auth/two-factor/disable/: the password and a code (or a recovery code). */
export const twoFactorDisableRequest = z.object({
  password: z.string().min(1).max(1000),
  code: typedCode,
});
export type TwoFactorDisableRequest = z.infer<typeof twoFactorDisableRequest>;

// --- Security keys (WebAuthn) ---------------------------------------------------------------

/** Binary values as WebAuthn's JSON carries them: base64url, bounded. */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Expected base64url.');
/** Extensions' results: none is used, so only the one browsers commonly send is kept. */
const clientExtensionResults = z
  .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
  .optional();

/** A key's answer when it is added: the browser's PublicKeyCredential, as JSON (WebAuthn Level 3). */
export const securityKeyRegistration = z.object({
  id: base64url(1400).min(1),
  rawId: base64url(1400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(32768),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
    authenticatorData: base64url(16384).optional(),
  }),
  clientExtensionResults,
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export type SecurityKeyRegistration = z.infer<typeof securityKeyRegistration>;

/** A key's answer at a login: the browser's PublicKeyCredential (an assertion), as JSON. */
export const securityKeyAssertion = z.object({
  id: base64url(1400).min(1),
  rawId: base64url(1400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(16384),
    signature: base64url(4096),
    userHandle: base64url(1024).optional(),
  }),
  clientExtensionResults,
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export type SecurityKeyAssertion = z.infer<typeof securityKeyAssertion>;

/**
 * What the browser passes to the key (navigator.credentials.create or .get), as the
 * server made it: WebAuthn's options JSON, with a fresh challenge that works once.
 */
export const securityKeyOptions = z.object({
  options: z.looseObject({ challenge: z.string() }),
});
export type SecurityKeyOptions = z.infer<typeof securityKeyOptions>;

/** POST /auth/security-keys/options/: the current password, before a key is added. */
export const securityKeyOptionsRequest = z.object({ password: z.string().min(1).max(1000) });
export type SecurityKeyOptionsRequest = z.infer<typeof securityKeyOptionsRequest>;

/** POST /auth/security-keys/: the new key's name and its answer to the options' challenge. */
export const securityKeyAddRequest = z.object({
  name: z.string().trim().min(1).max(64),
  credential: securityKeyRegistration,
});
export type SecurityKeyAddRequest = z.infer<typeof securityKeyAddRequest>;

/** One of the account's security keys. */
export const securityKey = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: dateTime,
  lastUsedAt: dateTime.nullable(),
});
export type SecurityKey = z.infer<typeof securityKey>;
export const securityKeyList = z.array(securityKey);

/** POST /auth/login/security-key/options/: the ticket of the login's first step. */
export const securityKeyLoginOptionsRequest = z.object({ ticket: z.string().min(1).max(100) });
export type SecurityKeyLoginOptionsRequest = z.infer<typeof securityKeyLoginOptionsRequest>;

/** POST /auth/login/security-key/: the ticket and the key's answer; the answer is `{ key }`. */
export const securityKeyLoginRequest = z.object({
  ticket: z.string().min(1).max(100),
  credential: securityKeyAssertion,
});
export type SecurityKeyLoginRequest = z.infer<typeof securityKeyLoginRequest>;

export const detailResponse = z.object({ detail: z.string() });

/** GET /auth/methods/: the ways to log in this installation offers. */
export const authMethods = z.object({
  oidc: z.object({ displayName: z.string(), loginUrl: z.string() }).nullable(),
  /** The operator's privacy notice, which registering asks the user to accept; absent when unset. */
  privacyNoticeUrl: z.string().optional(),
});
export type AuthMethods = z.infer<typeof authMethods>;

/** POST /auth/oidc/link/: where to send the browser to link an institutional login. */
export const oidcLinkResponse = z.object({ url: z.string() });
export const oidcExchangeRequest = z.object({ code: z.string().max(200) });

/** POST /auth/complete_registration/ (federated users; spec section 2). */
export const completeRegistrationRequest = z.object({
  institution: z.string().max(5000),
  gender_choice: z.string().max(5000),
  phone_number: z.string().max(5000),
  is_student: z.boolean().default(false),
  /** As in the registration: needed (true) only when the installation sets a privacy notice. */
  privacy_consent: z.boolean().optional(),
});
export type CompleteRegistrationRequest = z.input<typeof completeRegistrationRequest>;

/**
 * GET /auth/sessions/: one of the caller's live sessions (one per login). `id` is the
 * session's number, never its token. `client` names the browser and system the login
 * came from; `method` how it was made, null when not known.
 */
export const sessionInfo = z.object({
  id: z.number().int(),
  createdAt: dateTime,
  lastUsedAt: dateTime,
  client: z.string(),
  method: z.enum(['password', 'password_totp', 'password_webauthn', 'federated']).nullable(),
  /** The session this request was sent with. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;
export const sessionList = z.array(sessionInfo);

/** POST /auth/sessions/end-others/: how many sessions it ended. */
export const endOtherSessionsResponse = z.object({ ended: z.number().int() });
