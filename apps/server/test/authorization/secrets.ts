import { randomBytes } from 'node:crypto';

/**
 * Canaries: distinctive strings seeded in the data that some callers may not see (a
 * review's comment, its score, its reviewer's name, username, email and id, a decision
 * summary before the call closes, an award and its note before the decisions are released
 * (issue 29), the emails of a proposal's people). Every 2xx answer of
 * the authorization table is searched for them, raw body and headers, so a leak through
 * any field, a new one included, is caught.
 *
 * Who may see what is written here from the spec (section 6, "Roles and permissions")
 * and ARCHITECTURE.md ("Visibility", "Roles"), not read from the code under test.
 */
export type SecretKind =
  'review' | 'reviewer' | 'decision' | 'outcome' | 'awardNote' | 'email' | 'account';

/** What the rules need to know of the proposal a secret belongs to. */
export interface SecretOwner {
  committeeId: number;
  /** Its author and collaborators. */
  team: readonly number[];
  /**
   * Callers who may review it now (assigned, its review window open, submission closed):
   * they see all its reviews, to write their own.
   */
  reviewing: readonly number[];
  /** Its call is in its review period and open to all members: every member may review it. */
  reviewOpenToMembers: boolean;
  submitted: boolean;
  callClosed: boolean;
  /** Its call's chairs have released the decisions (issue 29): outcomes reach its people. */
  decisionsReleased: boolean;
  /**
   * Callers with a confirmed conflict of interest with it, on a call with conflicts turned
   * on: they see nothing of its reviews, reviewers or decision, chairs and admins too.
   */
  conflicted: readonly number[];
}

export interface Secret {
  kind: SecretKind;
  /** What it is, for the failure message: "review comment", "reviewer's email". */
  what: string;
  value: string;
  /** A number, found only as a whole number (not inside a longer one). */
  numeric?: boolean;
  /** The proposal it belongs to; for an `account` secret, a proposal nobody is on. */
  owner: SecretOwner;
  /** For an `account` secret: the user whose own it is. */
  accountOf?: number;
}

/** A caller as the visibility rules see them. */
export interface Viewer {
  id: number | null;
  isAdmin: boolean;
  /** Committees they chair now. */
  chairOf: readonly number[];
  /** Committees they are a member of now (chairs are members). */
  memberOf: readonly number[];
}

/**
 * Whether `viewer` may see `secret`:
 * - reviews, scores and reviewer identities: never the proposal's author or
 *   collaborators (whatever else they are), nor anyone with a conflict of interest with
 *   it (issue 26, chairs and admins too); the chairs of its committee and admins; the
 *   members who may review it now (assigned, or any member when the call's review is open
 *   to all, in its review period);
 * - a decision summary: its author and collaborators once the call is closed, and not
 *   before; the chairs of its committee and admins always but with a conflict of interest
 *   with it; nobody else;
 * - its outcome and awards (issue 29): its author and collaborators once the call is closed
 *   and its decisions released, and not before; otherwise as a decision summary;
 * - the notes on its awards: the chairs of its committee and admins but with a conflict of
 *   interest with it, never its author or collaborators;
 * - the emails of its people: whoever sees the proposal (its people, the committee's
 *   chairs and admins, the committee's members once it is submitted);
 * - the email of someone on no committee and no proposal: themselves and admins.
 */
export function maySee(viewer: Viewer, secret: Secret): boolean {
  const { owner } = secret;
  const team = viewer.id !== null && owner.team.includes(viewer.id);
  const chair = viewer.isAdmin || viewer.chairOf.includes(owner.committeeId);
  const member = viewer.isAdmin || viewer.memberOf.includes(owner.committeeId);
  const conflicted = viewer.id !== null && owner.conflicted.includes(viewer.id);
  switch (secret.kind) {
    case 'review':
    case 'reviewer':
      return (
        !team &&
        !conflicted &&
        (chair ||
          (viewer.id !== null && owner.reviewing.includes(viewer.id)) ||
          (owner.reviewOpenToMembers && member))
      );
    case 'decision':
      return team ? owner.callClosed : chair && !conflicted;
    case 'outcome':
      return team ? owner.callClosed && owner.decisionsReleased : chair && !conflicted;
    case 'awardNote':
      return !team && chair && !conflicted;
    case 'email':
      return team || chair || (member && owner.submitted);
    case 'account':
      return viewer.isAdmin || viewer.id === secret.accountOf;
  }
}

/** Canary reviewers' user ids start here, far above any id the sequences hand out in a test. */
export const CANARY_IDS_FROM = 900_000_000;

/**
 * Every number written whole in `text`: of each run of digits and dots that follows neither,
 * the part before each dot and the whole run, so "4.5." holds "4" and "4.5". A canary
 * number is one of them exactly when no digit or dot comes before it and no digit after.
 * One pass over the text: a regular expression per canary was a pass per canary, seconds
 * over a PDF once thousands of canaries are seeded.
 */
function wholeNumbersIn(text: string): Set<string> {
  const numbers = new Set<string>();
  for (const [run] of text.matchAll(/[0-9.]+/g)) {
    for (let at = run.indexOf('.'); at !== -1; at = run.indexOf('.', at + 1))
      numbers.add(run.slice(0, at));
    numbers.add(run);
  }
  return numbers;
}

/** Every canary seeded so far, from any cell: a list must not leak another cell's either. */
export class SecretRegistry {
  readonly all: Secret[] = [];
  private seq = 0;

  add(secret: Secret) {
    this.all.push(secret);
  }

  /** A new canary word: lower-case letters and digits, so no encoding changes it. */
  word(kind: string): string {
    this.seq += 1;
    return `zq${kind}${this.seq}x${randomBytes(4).toString('hex')}`;
  }

  /** A new canary score: a number with enough digits that nothing else matches it. */
  score(): number {
    this.seq += 1;
    return 4 + (this.seq * 7919 + 100_003) / 1e9;
  }

  /** A new canary user id: nine digits, so a number in a body is one only when it is whole. */
  userId(): number {
    this.seq += 1;
    return CANARY_IDS_FROM + this.seq;
  }

  /**
   * What of each kind was seen where the rules allow it: the proof that the canaries
   * reach the answers at all, so that their absence elsewhere means something.
   */
  readonly sighted = new Set<string>();

  /** The secrets `viewer` may not see that appear in `text`; notes the others seen. */
  leaksIn(text: string, viewer: Viewer): Secret[] {
    const numbers = wholeNumbersIn(text);
    const found = this.all.filter((secret) =>
      secret.numeric ? numbers.has(secret.value) : text.includes(secret.value),
    );
    const leaks = found.filter((secret) => !maySee(viewer, secret));
    for (const secret of found) if (!leaks.includes(secret)) this.sighted.add(secret.what);
    return leaks;
  }

  /** Every kind of canary there is. */
  get kinds(): string[] {
    return [...new Set(this.all.map((s) => s.what))].sort();
  }
}
