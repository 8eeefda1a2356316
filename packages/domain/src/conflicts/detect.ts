import { getDomain } from 'tldts';
import type { ConflictEvidence, ConflictFacts, ConflictState, ConflictType } from './conflicts.js';
import { FREE_MAIL_DOMAINS, RESERVED_TOP_LEVEL } from './free-mail.js';

/*
 * Merit's conflict detector: a function of plain data (who is on the committee, who wrote
 * what), so it runs the same in a job, a test or a benchmark. It indexes the members by
 * what could match, then walks each proposal's applicants once: the work grows with the
 * proposals' people, not with proposals times members.
 */

/** Someone as detection reads them: their address, institution and recent collaborators. */
export interface DetectionPerson {
  id: number;
  name: string;
  email: string;
  institution: string;
  /** The addresses on their list of recent collaborators (My Account). */
  collaboratorEmails: readonly string[];
}

export interface DetectionProposal {
  id: number;
  name: string;
  authorId: number;
  collaboratorIds: readonly number[];
}

/** A conflict the detector found: confirmed for the proposal's own people, else suggested. */
export interface DetectedConflict {
  proposalId: number;
  userId: number;
  type: ConflictType;
  /** Found: confirmed for the team, else suggested; kept as a chair judged it when updating. */
  state: ConflictState;
  evidence: ConflictEvidence[];
}

/**
 * The domain an address's institution owns, folded to what can be registered
 * (`cs.uu.se` and `uu.se` are both `uu.se`; `phys.ox.ac.uk` is `ox.ac.uk`), or null when it
 * says nothing about a workplace: free mail, reserved names, no domain at all.
 */
export function institutionalDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  const host = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  const top = host.slice(host.lastIndexOf('.') + 1);
  if (!host || RESERVED_TOP_LEVEL.has(top)) return null;
  const domain = getDomain(host, { allowPrivateDomains: false });
  if (!domain || FREE_MAIL_DOMAINS.has(domain)) return null;
  return domain;
}

/** Words that do not tell one institution from another: "The University of X" is "University of X". */
const FILLER_WORDS = new Set([
  'the',
  'of',
  'and',
  'for',
  'at',
  'in',
  'de',
  'del',
  'der',
  'des',
  'di',
  'du',
  'la',
  'le',
  'les',
  'van',
  'von',
  'y',
  'et',
  'und',
]);

/**
 * An institution's name as compared: lower case, accents and punctuation gone, filler
 * words dropped, spaces collapsed. '' when nothing is left (no institution given).
 * Apostrophes and full stops go without leaving a space ("King's" is "Kings", "U.C.L." is
 * "UCL"); other punctuation separates words ("Paris-Saclay" is "Paris Saclay").
 */
export function normalizeInstitution(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`.]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((word) => word && !FILLER_WORDS.has(word))
    .join(' ');
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Strength of each kind of evidence, for the conflict's type and the order shown. */
const TYPE_OF: Record<ConflictEvidence['kind'], ConflictType> = {
  team: 'author',
  collaboratorList: 'collaborator',
  sharedProposal: 'collaborator',
  domain: 'institutional',
  institution: 'institutional',
};
const RANK: Record<ConflictEvidence['kind'], number> = {
  team: 0,
  collaboratorList: 1,
  sharedProposal: 2,
  domain: 3,
  institution: 4,
};

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Every conflict between `members` (the committee: who may review or decide) and the
 * call's `proposals`, whose people `people` holds by id. One result per proposal and
 * member, with every piece of evidence found, strongest first; sorted by proposal, then
 * member, so the same input always gives the same output.
 */
export function detectConflicts(
  members: readonly DetectionPerson[],
  proposals: readonly DetectionProposal[],
  people: ReadonlyMap<number, DetectionPerson>,
): DetectedConflict[] {
  const memberIds = new Set(members.map((m) => m.id));
  const byDomain = new Map<string, DetectionPerson[]>();
  const byInstitution = new Map<string, DetectionPerson[]>();
  /** Members by an address on their own collaborator list. */
  const byListedEmail = new Map<string, DetectionPerson[]>();
  const memberByEmail = new Map<string, DetectionPerson>();
  for (const member of members) {
    const domain = institutionalDomain(member.email);
    if (domain) push(byDomain, domain, member);
    const institution = normalizeInstitution(member.institution);
    if (institution) push(byInstitution, institution, member);
    for (const email of new Set(member.collaboratorEmails.map(normalizeEmail)))
      push(byListedEmail, email, member);
    memberByEmail.set(normalizeEmail(member.email), member);
  }

  const teamOf = (p: DetectionProposal) => [p.authorId, ...p.collaboratorIds];
  /** The proposals each person is on, as author or collaborator. */
  const proposalsOf = new Map<number, DetectionProposal[]>();
  for (const proposal of proposals)
    for (const id of new Set(teamOf(proposal))) push(proposalsOf, id, proposal);

  const found = new Map<string, DetectedConflict>();
  const add = (proposalId: number, userId: number, evidence: ConflictEvidence) => {
    const key = `${proposalId}:${userId}`;
    const existing = found.get(key);
    if (!existing) {
      found.set(key, {
        proposalId,
        userId,
        type: TYPE_OF[evidence.kind],
        state: evidence.kind === 'team' ? 'confirmed' : 'suggested',
        evidence: [evidence],
      });
      return;
    }
    if (existing.evidence.some((e) => JSON.stringify(e) === JSON.stringify(evidence))) return;
    existing.evidence.push(evidence);
    existing.evidence.sort((a, b) => RANK[a.kind] - RANK[b.kind]);
    existing.type = TYPE_OF[existing.evidence[0]!.kind];
    existing.state = existing.type === 'author' ? 'confirmed' : 'suggested';
  };

  for (const proposal of proposals) {
    const team = teamOf(proposal);
    const teamIds = new Set(team);
    for (const id of teamIds)
      if (memberIds.has(id))
        add(proposal.id, id, {
          kind: 'team',
          role: id === proposal.authorId ? 'author' : 'collaborator',
        });
    for (const applicantId of teamIds) {
      const applicant = people.get(applicantId);
      if (!applicant) continue;
      const others = (list: readonly DetectionPerson[] | undefined) =>
        (list ?? []).filter((m) => !teamIds.has(m.id));
      const domain = institutionalDomain(applicant.email);
      if (domain)
        for (const member of others(byDomain.get(domain)))
          add(proposal.id, member.id, {
            kind: 'domain',
            person: member.email.slice(member.email.lastIndexOf('@') + 1).toLowerCase(),
            applicant: applicant.email.slice(applicant.email.lastIndexOf('@') + 1).toLowerCase(),
            applicantName: applicant.name,
          });
      const institution = normalizeInstitution(applicant.institution);
      if (institution)
        for (const member of others(byInstitution.get(institution)))
          add(proposal.id, member.id, {
            kind: 'institution',
            person: member.institution,
            applicant: applicant.institution,
            applicantName: applicant.name,
          });
      const email = normalizeEmail(applicant.email);
      for (const member of others(byListedEmail.get(email)))
        add(proposal.id, member.id, {
          kind: 'collaboratorList',
          listedBy: 'person',
          email: applicant.email,
          applicantName: applicant.name,
        });
      for (const listed of new Set(applicant.collaboratorEmails.map(normalizeEmail))) {
        const member = memberByEmail.get(listed);
        if (member && !teamIds.has(member.id))
          add(proposal.id, member.id, {
            kind: 'collaboratorList',
            listedBy: 'applicant',
            email: member.email,
            applicantName: applicant.name,
          });
      }
      // A member who shares another proposal of the call with this applicant.
      for (const other of proposalsOf.get(applicantId) ?? []) {
        if (other.id === proposal.id) continue;
        for (const id of new Set(teamOf(other)))
          if (id !== applicantId && memberIds.has(id) && !teamIds.has(id))
            add(proposal.id, id, {
              kind: 'sharedProposal',
              proposalId: other.id,
              proposalName: other.name,
              applicantName: applicant.name,
            });
      }
    }
  }
  return [...found.values()].sort((a, b) => a.proposalId - b.proposalId || a.userId - b.userId);
}

/** A stored conflict as reconciling reads it. */
export interface StoredConflict extends ConflictFacts {
  id: number;
  proposalId: number;
  userId: number;
}

/**
 * What a new detection changes in the stored conflicts:
 * - a pair found that has no row gets one (confirmed for the team, else suggested);
 * - a detected row still found gets the new evidence and type (a suggestion stays a
 *   suggestion, a dismissed one stays dismissed, a confirmed one stays confirmed);
 * - a detected row no longer found goes, if it was only a suggestion or Merit's own
 *   record of authorship; one a chair has judged stays, as their judgement;
 * - rows someone declared (applicant, member, chair) are never changed.
 */
export function reconcileConflicts(
  stored: readonly StoredConflict[],
  detected: readonly DetectedConflict[],
): {
  insert: DetectedConflict[];
  update: (DetectedConflict & { id: number })[];
  remove: number[];
} {
  const key = (c: { proposalId: number; userId: number }) => `${c.proposalId}:${c.userId}`;
  const storedByKey = new Map(stored.map((c) => [key(c), c]));
  const detectedKeys = new Set(detected.map(key));
  const insert: DetectedConflict[] = [];
  const update: (DetectedConflict & { id: number })[] = [];
  for (const found of detected) {
    const row = storedByKey.get(key(found));
    if (!row) insert.push(found);
    else if (row.source === 'detected') {
      // A suggestion that turned out to be authorship (the member joined the team) is
      // confirmed. Merit's own record of authorship that is now only a suggestion (they left
      // the team, but share the applicants' institution) goes back to the chairs to judge:
      // no one confirmed it but Merit.
      const state =
        found.state === 'confirmed' ? 'confirmed' : row.type === 'author' ? 'suggested' : row.state;
      update.push({ ...found, id: row.id, state });
    }
  }
  const remove = stored
    .filter(
      (row) =>
        row.source === 'detected' &&
        !detectedKeys.has(key(row)) &&
        (row.state === 'suggested' || row.type === 'author'),
    )
    .map((row) => row.id);
  return { insert, update, remove };
}
