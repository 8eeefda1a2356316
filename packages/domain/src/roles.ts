export const COMMITTEE_ROLES = ['CHAIR', 'MEMBER'] as const;
export type CommitteeRoleName = (typeof COMMITTEE_ROLES)[number];

export interface RoleDates {
  commencement: Date;
  termination: Date;
}

/**
 * A committee role is current while `now` is inside [commencement, termination],
 * both ends inclusive (ARCHITECTURE.md "Roles"): a role ending today still counts today.
 */
export function isRoleCurrent(role: RoleDates, now: Date): boolean {
  const t = now.getTime();
  return role.commencement.getTime() <= t && t <= role.termination.getTime();
}
