/**
 * The kinds of caller the authorization table distinguishes (issue 16, item 1), in the
 * order of its columns. Each cell of the table gets a new caller of its kind, with a new
 * token, so no cell depends on another.
 */
export const PERSONAS = [
  'anonymous',
  'unverified',
  'incomplete',
  'deactivated',
  'user',
  'author',
  'collaborator',
  'member',
  'reviewer',
  'otherChair',
  'chair',
  'chairAuthor',
  'expiredChair',
  'admin',
  'conflictedMember',
  'conflictedChair',
  'conflictedAdmin',
] as const;
export type Persona = (typeof PERSONAS)[number];
export type Expected = Record<Persona, number>;

/** Who each persona is, for the table's legend in docs/authorization.md. */
export const PERSONA_DESCRIPTIONS: Record<Persona, string> = {
  anonymous: 'No token.',
  unverified:
    'Registered with a password, email never verified: the login is refused (400 `email_not_verified`), so every call goes without a token.',
  incomplete:
    'Federated (AAF) account whose registration is incomplete: a live token, 403 `registration_incomplete` outside what completing it needs.',
  deactivated: 'An account an admin deactivated: its token is dead.',
  user: 'Logged in, no committee role, nothing to do with the proposal a row acts on.',
  author: 'The author of the proposal the row acts on (a plain user elsewhere).',
  collaborator: 'A collaborator on the proposal the row acts on (a plain user elsewhere).',
  member: "A current member of the call's committee, not assigned to the proposal.",
  reviewer:
    "A current member of the call's committee whom the chair assigned to review the proposal.",
  otherChair: 'A current chair of another committee.',
  chair: "A current chair of the call's committee.",
  chairAuthor:
    "A current chair of the call's committee who wrote the proposal the row acts on: its author above all, who never sees its reviews or, before the call closes, its decision.",
  expiredChair: "A chair of the call's committee whose role ended yesterday.",
  admin: 'An administrator, who counts as chair and member of every committee.',
  conflictedMember:
    "A current member of the call's committee, assigned to review the proposal the row acts on, with a confirmed conflict of interest with it (a plain member elsewhere).",
  conflictedChair:
    "A current chair of the call's committee with a confirmed conflict of interest with the proposal the row acts on (a plain chair elsewhere).",
  conflictedAdmin:
    'An administrator with a confirmed conflict of interest with the proposal the row acts on (a plain admin elsewhere): their own conflicts apply to them like anyone’s.',
};

/** Open to all: a token changes nothing, and a dead one is ignored. */
export const everyone = (status: number): Expected =>
  Object.fromEntries(PERSONAS.map((p) => [p, status])) as Expected;

/**
 * Any logged-in user whose registration is complete. An unverified account has no token
 * (its login is refused) and a deactivated one a dead token: both are 401.
 */
export const loggedIn = (status: number): Expected => ({
  ...everyone(status),
  anonymous: 401,
  unverified: 401,
  deactivated: 401,
  incomplete: 403,
});
/** Open to an incomplete registration too: what completing it needs. */
export const registering = (status: number): Expected => ({
  ...loggedIn(status),
  incomplete: status,
});
export const adminOnly = (status: number): Expected => ({
  ...loggedIn(403),
  admin: status,
  conflictedAdmin: status,
});
/** Chairs of the call's committee, and admins, who count as chairs everywhere. */
export const chairsOnly = (status: number): Expected => ({
  ...adminOnly(status),
  chair: status,
  chairAuthor: status,
  conflictedChair: status,
});
/** Chairs of any committee, now. */
export const anyChair = (status: number): Expected => ({
  ...chairsOnly(status),
  otherChair: status,
});
/**
 * A proposal: whoever may not see it is told it does not exist (404); `cells` says what
 * those who see it get.
 */
export const onProposal = (cells: Partial<Expected>): Expected => ({ ...loggedIn(404), ...cells });
