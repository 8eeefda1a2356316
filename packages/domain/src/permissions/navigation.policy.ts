import type { Actor } from '../users.js';

/**
 * Where a logged-in user may go, for the side menu and the route guards.
 * The server enforces the same rules on every API route; this only decides what to show.
 */
export type AreaAccess = 'allowed' | 'denied' | 'complete-registration';

/** The admin screens: Manage Users, Manage Committees, Form Builder. */
export function isAdmin(actor: Pick<Actor, 'isAdmin'>): boolean {
  return actor.isAdmin;
}

/**
 * Spec section 2, access rules: an incomplete registration sends the user to
 * /auth/complete_registration before any other page; admin areas need the admin flag.
 */
export function accessToArea(actor: Actor, area: 'member' | 'admin'): AreaAccess {
  if (!actor.registrationComplete) return 'complete-registration';
  if (area === 'admin' && !isAdmin(actor)) return 'denied';
  return 'allowed';
}
