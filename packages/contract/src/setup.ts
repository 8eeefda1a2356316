import { z } from 'zod';

// --- The guided first run (issue 30) ---------------------------------------------------

/**
 * GET /admin/setup/: what an installation has so far, counted, for the admin's first-run
 * checklist. Each count ticks one step; the checklist shows while any is zero.
 */
export const setupStatus = z
  .object({
    committees: z.number().int(),
    /** Current or future CHAIR roles, in any committee. */
    chairs: z.number().int(),
    forms: z.number().int(),
    calls: z.number().int(),
    /** Accounts other than administrators: people who registered or were invited. */
    people: z.number().int(),
  })
  .meta({ id: 'SetupStatus' });
export type SetupStatus = z.infer<typeof setupStatus>;

// --- Invitation links -------------------------------------------------------------------

/**
 * GET /committees/{id}/invitation/: a link to registration that names the committee, for
 * its chairs and admins to send. The token is signed by the server, so it names only the
 * committee it was made for.
 */
export const invitationLink = z
  .object({ token: z.string(), committeeName: z.string() })
  .meta({ id: 'InvitationLink' });
export type InvitationLink = z.infer<typeof invitationLink>;

/**
 * `<committee id>.<43 characters of base64url signature>`: anything else in the path is
 * not an invitation at all, a plain 404 as for a malformed id.
 */
export const invitationParams = z.object({
  token: z.string().regex(/^[1-9][0-9]{0,9}\.[A-Za-z0-9_-]{43}$/),
});

/** GET /invitations/{token}: the committee an invitation is for, shown on registration. */
export const invitation = z.object({ committeeName: z.string() }).meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof invitation>;
