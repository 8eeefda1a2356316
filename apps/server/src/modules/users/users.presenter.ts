import type { UserDetails, UserRole } from '@merit/contract';
import {
  abilitiesOf,
  globalPolicy,
  type Administration,
  isRoleCurrent,
  type CommitteeRoleName,
  type Gender,
} from '@merit/domain';
import type { UserRow } from './users.queries.js';

export interface RoleRow {
  id: number;
  committeeId: number;
  committeeName: string;
  role: string;
  commencement: Date;
  termination: Date;
}

export function presentRole(row: RoleRow, now: Date): UserRole {
  return {
    id: row.id,
    committeeId: row.committeeId,
    committeeName: row.committeeName,
    role: row.role as CommitteeRoleName,
    commencement: row.commencement.toISOString(),
    termination: row.termination.toISOString(),
    current: isRoleCurrent(row, now),
  };
}

/**
 * The User of spec section 3, under its spec names, with what the user may do that is
 * tied to no one resource (start a call, review), decided on the server's clock.
 */
export function presentUserDetails(
  user: UserRow,
  roles: RoleRow[],
  pendingEmail: string | null,
  hasFederatedLogin: boolean,
  hasTwoFactor: boolean,
  administration: Administration,
  now: Date,
): UserDetails {
  // An admin who must turn on two-step verification first has no admin's reach until then
  // (the auth hook treats them so too): the abilities say what the server would allow.
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    institution: user.institution,
    gender: user.gender as Gender | null,
    phone_number: user.phoneNumber,
    is_student: user.isStudent,
    is_admin: user.isAdmin,
    registration_complete: user.registrationComplete,
    is_aaf: user.isAaf,
    hash: user.hash,
    pending_email: pendingEmail,
    has_federated_login: hasFederatedLogin,
    has_two_factor: hasTwoFactor,
    roles: roles.map((r) => presentRole(r, now)),
    abilities: {
      ...abilitiesOf(
        globalPolicy,
        {
          id: user.id,
          isAdmin: administration === 'allowed',
          roles: roles.map((r) => ({ ...r, role: r.role as CommitteeRoleName })),
        },
        null,
        now,
      ),
      administer: administration === 'allowed',
    },
  };
}
