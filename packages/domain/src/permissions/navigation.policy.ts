import type { Actor } from '../users.js';

/**
 * Where a logged-in user may go, for the side menu and the route guards.
 * The server enforces the same rules on every API route; this only decides what to show.
 */
export type AreaAccess = 'allowed' | 'denied' | 'complete-registration' | 'needs-two-factor';

/** The admin screens: Manage Users, Manage Committees, Form Builder. */
export function isAdmin(actor: Pick<Actor, 'isAdmin'>): boolean {
  return actor.isAdmin;
}

/**
 * Spec section 2, access rules: an incomplete registration sends the user to
 * /auth/complete_registration before any other page; admin areas need the admin flag.
 * `mayAdminister` is the server's `abilities.administer` (modules/auth/auth-access.ts): false for
 * an admin who must turn on two-step verification first (ADMIN_TWO_FACTOR=required).
 */
export function accessToArea(
  actor: Actor & { mayAdminister?: boolean },
  area: 'member' | 'admin',
): AreaAccess {
  if (!actor.registrationComplete) return 'complete-registration';
  if (area === 'admin' && !isAdmin(actor)) return 'denied';
  if (area === 'admin' && actor.mayAdminister === false) return 'needs-two-factor';
  return 'allowed';
}
