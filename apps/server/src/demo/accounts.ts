/**
 * The demo world's accounts (issue 30): a username that says the role, and a believable
 * person behind it. A plain module with no imports, so the e2e support (which starts the
 * demo server and logs in as these) reads the same list as the world that makes them.
 */

export type DemoRole = 'admin' | 'chair' | 'member' | 'applicant';

export interface DemoAccount {
  username: string;
  role: DemoRole;
  firstName: string;
  lastName: string;
  institution: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    username: 'admin',
    role: 'admin',
    firstName: 'Alex',
    lastName: 'Morgan',
    institution: 'Northern Lights Research Infrastructure',
  },
  {
    username: 'chair',
    role: 'chair',
    firstName: 'Ingrid',
    lastName: 'Halvorsen',
    institution: 'University of Tromsø',
  },
  {
    username: 'chair2',
    role: 'chair',
    firstName: 'Tomasz',
    lastName: 'Wójcik',
    institution: 'Gdańsk University of Technology',
  },
  {
    username: 'member1',
    role: 'member',
    firstName: 'Amara',
    lastName: 'Okafor',
    institution: 'University of Edinburgh',
  },
  {
    username: 'member2',
    role: 'member',
    firstName: 'Kenji',
    lastName: 'Watanabe',
    institution: 'Tohoku University',
  },
  {
    username: 'member3',
    role: 'member',
    firstName: 'Sofia',
    lastName: 'Lindqvist',
    institution: 'Uppsala University',
  },
  {
    username: 'member4',
    role: 'member',
    firstName: 'Daniel',
    lastName: 'Ferreira',
    institution: 'University of Porto',
  },
  {
    username: 'applicant1',
    role: 'applicant',
    firstName: 'Maya',
    lastName: 'Patel',
    institution: 'University of Leeds',
  },
  {
    username: 'applicant2',
    role: 'applicant',
    firstName: 'Lukas',
    lastName: 'Becker',
    institution: 'Heidelberg University',
  },
  {
    username: 'applicant3',
    role: 'applicant',
    firstName: 'Chloé',
    lastName: 'Martin',
    institution: 'Université Grenoble Alpes',
  },
  {
    username: 'applicant4',
    role: 'applicant',
    firstName: 'Ravi',
    lastName: 'Shankar',
    institution: 'Uppsala University',
  },
  {
    username: 'applicant5',
    role: 'applicant',
    firstName: 'Eilidh',
    lastName: 'MacLeod',
    institution: 'University of Aberdeen',
  },
];

/** What each role is for, as the start-up box says it. */
export const DEMO_ROLE_LABELS: Record<DemoRole, string> = {
  admin: 'administrator',
  chair: 'committee chair',
  member: 'committee member',
  applicant: 'applicant',
};

export const demoEmail = (account: Pick<DemoAccount, 'username'>) =>
  `${account.username}@example.org`;
