import type { UserDetails } from '@merit/contract';

/**
 * What the signed-in user may do beyond any one call, as the server decided it (the
 * `abilities` of their details, on the server's clock): the web app shows what the
 * server would allow and never recomputes roles with the browser's clock.
 */

/** Chairs of any committee and admins may start a call (spec section 2, Call lists). */
export const canStartCall = (user: UserDetails) => user.abilities.createCall;

/** Members of a committee now (chairs and admins too): the review panels. */
export const isAnyMember = (user: UserDetails) => user.abilities.review;

/**
 * The committees this user chairs now, with their names, for the wizard's committee
 * select; null for an admin, who may choose any committee. "Now" is the server's: each
 * role arrives with `current` decided there.
 */
export function chairedCommittees(user: UserDetails): { id: number; name: string }[] | null {
  // An admin who must turn on two-step verification first chooses like the user they are.
  if (user.abilities.administer) return null;
  const chaired = new Map<number, string>();
  for (const role of user.roles)
    if (role.current && role.role === 'CHAIR') chaired.set(role.committeeId, role.committeeName);
  return [...chaired].map(([id, name]) => ({ id, name }));
}
