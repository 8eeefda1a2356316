import type { UserDetails } from '@merit/contract';
import {
  chairedCommitteeIds,
  isAnyChair,
  isCommitteeMember,
  type CommitteeActor,
} from '@merit/domain';

/** The signed-in user as the domain's committee rules see them. */
export function committeeActorOf(user: UserDetails): CommitteeActor {
  return {
    id: user.id,
    isAdmin: user.is_admin,
    roles: user.roles.map((role) => ({
      committeeId: role.committeeId,
      role: role.role,
      commencement: new Date(role.commencement),
      termination: new Date(role.termination),
    })),
  };
}

/** Chairs of any committee and admins may start a call (spec section 2, Call lists). */
export function canStartCall(user: UserDetails, now = new Date()): boolean {
  return isAnyChair(committeeActorOf(user), now);
}

/** Member of at least one committee now (admins count): sees the review panels. */
export function isAnyMember(user: UserDetails, now = new Date()): boolean {
  const actor = committeeActorOf(user);
  return (
    user.is_admin || actor.roles.some((role) => isCommitteeMember(actor, role.committeeId, now))
  );
}

/**
 * The committees this user chairs now, with their names, for the wizard's committee
 * select; null for an admin, who may choose any committee.
 */
export function chairedCommittees(
  user: UserDetails,
  now = new Date(),
): { id: number; name: string }[] | null {
  const ids = chairedCommitteeIds(committeeActorOf(user), now);
  if (ids === null) return null;
  return ids.map((id) => ({
    id,
    name: user.roles.find((role) => role.committeeId === id)?.committeeName ?? `Committee ${id}`,
  }));
}
