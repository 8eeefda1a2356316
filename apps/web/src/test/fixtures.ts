import { vi } from 'vitest';
import type { UserDetails } from '@merit/contract';

/**
 * A signed-in user's details. Unless given, `abilities` follow the roles and the admin
 * flag as the server decides them (each role's `current` stands for the server's clock).
 */
export function makeUser(overrides: Partial<UserDetails> = {}): UserDetails {
  const isAdmin = overrides.is_admin ?? false;
  const current = (overrides.roles ?? []).filter((role) => role.current);
  const chair = isAdmin || current.some((role) => role.role === 'CHAIR');
  return {
    id: 7,
    username: 'ada',
    email: 'ada@example.org',
    first_name: 'Ada',
    last_name: 'Lovelace',
    institution: 'Analytical Engines',
    gender: 'FEMALE',
    phone_number: '+61 2 1234 5678',
    is_student: false,
    is_admin: false,
    registration_complete: true,
    is_aaf: false,
    hash: 'Xk7pQ2mNa9',
    pending_email: null,
    has_federated_login: false,
    has_two_factor: false,
    roles: [],
    abilities: {
      createCall: chair,
      readForms: chair,
      lookUpUsers: chair,
      review: isAdmin || current.length > 0,
      administer: isAdmin,
    },
    ...overrides,
  };
}

/**
 * A fake clock for polls (the editor's lock every LOCK_POLL_MS) that a test moves on with
 * `vi.advanceTimersByTimeAsync`: only the timers and `Date` are faked, never
 * `setImmediate`, which React's scheduler runs on. Faking it too let user-event's advance
 * of the clock run React's work in the middle of an event React was already handling, an
 * uncaught "Should not already be working." on a busy machine.
 */
export function fakePollTimers() {
  vi.useFakeTimers({
    shouldAdvanceTime: true,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
}
