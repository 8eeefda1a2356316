import { COMMITTEE_ROLES } from '@merit/domain';
import { z } from 'zod';
import { entityId, idParam, listQuery, paginated } from './common.js';
import { userDetails, userRole } from './users.js';

// Request fields are loose shapes: the rules and their messages (required, lengths, date
// order) live in @merit/domain, so the admin forms show the same words as the server and
// every problem comes back at once.
const text = z.string().max(5000);
const optionalText = text.nullable().optional();

// --- Users -------------------------------------------------------------------------

/** One row of the Manage Users table. */
export const userSummary = z
  .object({
    id: z.number().int(),
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    institution: z.string(),
    is_aaf: z.boolean(),
    is_admin: z.boolean(),
    is_active: z.boolean(),
  })
  .meta({ id: 'UserSummary' });
export type UserSummary = z.infer<typeof userSummary>;

/** The columns the Manage Users list sorts by. */
export const USER_SORTS = ['username', 'aaf', 'email', 'institution'] as const;

/**
 * GET /users/: one page of users, sorted by a column (username by default), searched with
 * `q` in username, first and last name, full name, email and institution.
 */
export const userListQuery = listQuery(USER_SORTS, 'username');
export const userPage = paginated(userSummary);

/** GET /users/{id}/: a user's details as they see them, plus whether the account is active. */
export const adminUserDetails = userDetails
  .extend({ is_active: z.boolean() })
  .meta({ id: 'AdminUserDetails' });
export type AdminUserDetails = z.infer<typeof adminUserDetails>;

/** PATCH /users/{id}/: make a user admin or not, deactivate or reactivate the account. */
export const userAdminUpdate = z
  .object({ is_admin: z.boolean(), is_active: z.boolean() })
  .partial()
  .strict();
export type UserAdminUpdate = z.infer<typeof userAdminUpdate>;

export const userIdParams = z.object({ userId: idParam });

// --- Committee roles ---------------------------------------------------------------

/**
 * A committee role as the admin screens show it: a user's role with its user, and the
 * member's expertise (facilities and keywords) that automatic assignment matches against
 * proposals. Only here, not on the account's own roles: administrators set and read it.
 */
export const committeeRole = userRole
  .extend({
    userId: z.number().int(),
    facilities: z.array(z.string()),
    keywords: z.array(z.string()),
  })
  .meta({ id: 'CommitteeRole' });
export type CommitteeRole = z.infer<typeof committeeRole>;
export const committeeRoleList = z.array(committeeRole);

/** Facilities or keywords as sent: trimmed, de-duplicated and limited by the domain's rules. */
const expertiseList = z.array(text).nullable().optional();

/**
 * POST /roles/{userId}/. Dates are `YYYY-MM-DD` (a whole day in UTC: commencement from its
 * start, termination to its end) or ISO 8601 date-times with a zone. `facilities` and
 * `keywords` are optional; left out, the role has none.
 */
export const roleRequest = z.object({
  committeeId: entityId.nullable().optional(),
  role: optionalText,
  commencement: optionalText,
  termination: optionalText,
  facilities: expertiseList,
  keywords: expertiseList,
  /** The spec's "role data including userId": when sent, it must be the user of the path. */
  userId: entityId.optional(),
});
export type RoleRequest = z.infer<typeof roleRequest>;

/**
 * PATCH /roles/{userId}/: the whole role again, with the id of the role to change. Like
 * every other field, facilities and keywords left out are not kept: the role has none.
 */
export const roleUpdateRequest = roleRequest.extend({ id: entityId });
export type RoleUpdateRequest = z.infer<typeof roleUpdateRequest>;

// --- Committees --------------------------------------------------------------------

/** A current member of a committee (GET /committee_members/ and the committee page). */
export const committeeMember = z.object({
  roleId: z.number().int(),
  userId: z.number().int(),
  /** First and last name, or the username when both are empty. */
  name: z.string(),
  email: z.string(),
  is_active: z.boolean(),
  role: z.enum(COMMITTEE_ROLES),
  commencement: z.iso.datetime(),
  termination: z.iso.datetime(),
});
export type CommitteeMember = z.infer<typeof committeeMember>;
export const committeeMemberList = z.array(committeeMember);
export const committeeMembersQuery = z.object({ committee: idParam });

export const committee = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** True only while nothing refers to the committee: no roles, no calls. */
    canDelete: z.boolean(),
  })
  .meta({ id: 'Committee' });
export type Committee = z.infer<typeof committee>;
export const committeeList = z.array(committee);

export const committeeDetail = committee
  .extend({ members: committeeMemberList })
  .meta({ id: 'CommitteeDetail' });
export type CommitteeDetail = z.infer<typeof committeeDetail>;

export const committeeCreate = z.object({ name: optionalText });
export type CommitteeCreate = z.infer<typeof committeeCreate>;
