import { randomBytes } from 'node:crypto';

/** Everything the registration form asks of a person. */
export interface Person {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  institution: string;
  /** The label of the Gender select's choice. */
  gender: 'Male' | 'Female' | 'Other/Prefer not to say';
  phone: string;
  password: string;
}

/**
 * A person no one has registered yet: names and addresses carry a random tag, so a
 * journey can run again against the same server (MERIT_E2E_BASE_URL) without clashes.
 */
export function newPerson(role: string): Person {
  const tag = randomBytes(4).toString('hex');
  const username = `${role}-${tag}`;
  return {
    username,
    email: `${username}@example.test`,
    firstName: 'Ada',
    lastName: `Lovelace ${tag}`,
    institution: 'University of Tasmania',
    gender: 'Female',
    phone: '+61 3 6226 2999',
    password: newPassword(),
  };
}

/** A password strong enough for the server's check, and like no username. */
export function newPassword(): string {
  return `Quiet-Lantern-${randomBytes(3).toString('hex')}-Harbour`;
}
