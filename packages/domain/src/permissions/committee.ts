import { isRoleCurrent, type CommitteeRoleName, type RoleDates } from '../roles.js';

export interface ActorRole extends RoleDates {
  committeeId: number;
  role: CommitteeRoleName;
}

/** A user as the permission rules see them: the admin flag and their committee roles. */
export interface CommitteeActor {
  id: number;
  isAdmin: boolean;
  roles: readonly ActorRole[];
  /**
   * The login session and browser tab the request comes from: one editor, for a
   * proposal's editing lock (`Editor`). Absent outside a request (tools, fixtures).
   */
  session?: { tokenId: number; tabId: string };
}

/** Admins count as chair of every committee (ARCHITECTURE.md "Roles"). */
export function isCommitteeChair(actor: CommitteeActor, committeeId: number, now: Date): boolean {
  if (actor.isAdmin) return true;
  return actor.roles.some(
    (r) => r.committeeId === committeeId && r.role === 'CHAIR' && isRoleCurrent(r, now),
  );
}

/** Chairs are members; admins are members of every committee. */
export function isCommitteeMember(actor: CommitteeActor, committeeId: number, now: Date): boolean {
  if (actor.isAdmin) return true;
  return actor.roles.some((r) => r.committeeId === committeeId && isRoleCurrent(r, now));
}

/** Chair of at least one committee now (or admin): may start a new call. */
export function isAnyChair(actor: CommitteeActor, now: Date): boolean {
  return actor.isAdmin || actor.roles.some((r) => r.role === 'CHAIR' && isRoleCurrent(r, now));
}

/** The committees whose calls this actor may create (admins: all, signalled by null). */
export function chairedCommitteeIds(actor: CommitteeActor, now: Date): number[] | null {
  if (actor.isAdmin) return null;
  return [
    ...new Set(
      actor.roles
        .filter((r) => r.role === 'CHAIR' && isRoleCurrent(r, now))
        .map((r) => r.committeeId),
    ),
  ];
}
