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
  method: z.enum(['password', 'federated']).nullable(),
  /** The session this request was sent with. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;
export const sessionList = z.array(sessionInfo);

/** POST /auth/sessions/end-others/: how many sessions it ended. */
export const endOtherSessionsResponse = z.object({ ended: z.number().int() });
