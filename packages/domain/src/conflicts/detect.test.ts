import { describe, expect, it } from 'vitest';
import type { ConflictEvidence } from './conflicts.js';
import {
  detectConflicts,
  institutionalDomain,
  normalizeInstitution,
  reconcileConflicts,
  type DetectedConflict,
  type DetectionPerson,
  type DetectionProposal,
  type StoredConflict,
} from './detect.js';

describe('institutionalDomain', () => {
  it.each([
    // Subdomains fold to what can be registered, so a department matches its university.
    ['ana@cs.uu.se', 'uu.se'],
    ['bo@uu.se', 'uu.se'],
    ['cy@phys.ox.ac.uk', 'ox.ac.uk'],
    ['di@ox.ac.uk', 'ox.ac.uk'],
    ['Ed@CS.UU.SE', 'uu.se'],
    [' fa@uu.se ', 'uu.se'],
    ['gu@uu.se.', 'uu.se'],
    ['"hi@there"@kth.se', 'kth.se'],
    // Free mail says nothing about a workplace, also under a provider's subdomain.
    ['ana@gmail.com', null],
    ['ana@qq.com', null],
    ['ana@outlook.com', null],
    ['ana@mail.yahoo.co.uk', null],
    // Names reserved for examples and tests belong to no institution.
    ['ana@example.com', null],
    ['ana@cs.example.com', null],
    ['ana@uni.test', null],
    ['ana@dept.uni.test', null],
    ['ana@host.example', null],
    ['ana@localhost', null],
    // No domain at all.
    ['ana', null],
    ['ana@', null],
    ['ana@co.uk', null],
  ] as const)('%s -> %s', (email, expected) => {
    expect(institutionalDomain(email)).toBe(expected);
  });
});

describe('normalizeInstitution', () => {
  it.each([
    ['The University of Oxford', 'University of Oxford'],
    ['UNIVERSITY OF OXFORD', 'university of oxford'],
    ['University of Oxford.', 'University of Oxford'],
    ['Université de Genève', 'Universite de Geneve'],
    ['ETH Zürich', 'ETH Zurich'],
    ['Texas A&M University', 'Texas A and M University'],
    ["King's College London", 'Kings College London'],
    ['King’s College London', "King's College London"],
    ['Paris-Saclay University', 'Paris Saclay University'],
    ['  Uppsala   University ', 'Uppsala University'],
    ['U.C.L.', 'UCL'],
  ])('%s is %s', (a, b) => {
    expect(normalizeInstitution(a)).toBe(normalizeInstitution(b));
    expect(normalizeInstitution(a)).not.toBe('');
  });

  it.each([
    ['University of Oxford', 'Oxford Brookes University'],
    ['Uppsala University', 'Stockholm University'],
    ['University of Paris', 'Paris University of Technology'],
  ])('%s is not %s', (a, b) => {
    expect(normalizeInstitution(a)).not.toBe(normalizeInstitution(b));
  });

  it('reads as lower case words without the filler', () => {
    expect(normalizeInstitution('The University of Oxford')).toBe('university oxford');
  });

  it.each(['', '   ', 'The', 'of the', '—'])('%j is nothing', (name) => {
    expect(normalizeInstitution(name)).toBe('');
  });
});

const person = (
  id: number,
  email: string,
  institution = '',
  collaboratorEmails: string[] = [],
): DetectionPerson => ({ id, name: `Person ${id}`, email, institution, collaboratorEmails });
const proposal = (id: number, authorId: number, collaboratorIds: number[] = []) => ({
  id,
  name: `Proposal ${id}`,
  authorId,
  collaboratorIds,
});
/** Detection over the committee `members` and the call's `proposals`; `others` are applicants. */
const detect = (
  members: DetectionPerson[],
  proposals: DetectionProposal[],
  others: DetectionPerson[] = [],
) => detectConflicts(members, proposals, new Map([...members, ...others].map((p) => [p.id, p])));

describe('detectConflicts', () => {
  /** An applicant at Uppsala, whose proposal 1 the committee reviews. */
  const applicant = person(10, 'app@uu.se', 'Uppsala University');

  it('confirms the author and a collaborator who are members, type author', () => {
    const author = person(1, 'au@kth.se');
    const collaborator = person(2, 'co@lu.se');
    expect(detect([author, collaborator], [proposal(1, 1, [2])])).toEqual([
      {
        proposalId: 1,
        userId: 1,
        type: 'author',
        state: 'confirmed',
        evidence: [{ kind: 'team', role: 'author' }],
      },
      {
        proposalId: 1,
        userId: 2,
        type: 'author',
        state: 'confirmed',
        evidence: [{ kind: 'team', role: 'collaborator' }],
      },
    ]);
  });

  it('suggests an institutional conflict between cs.uu.se and uu.se, naming both', () => {
    const member = person(1, 'Mem@CS.uu.se');
    expect(detect([member], [proposal(1, 10)], [applicant])).toEqual([
      {
        proposalId: 1,
        userId: 1,
        type: 'institutional',
        state: 'suggested',
        evidence: [
          { kind: 'domain', person: 'cs.uu.se', applicant: 'uu.se', applicantName: 'Person 10' },
        ],
      },
    ]);
  });

  it.each([
    ['free mail on both sides', 'mem@gmail.com', 'app@gmail.com'],
    ['the same free mail under two names', 'mem@googlemail.com', 'app@gmail.com'],
    ['reserved test names', 'mem@uni.test', 'app@uni.test'],
    ['example.com', 'mem@example.com', 'app@example.com'],
    ['two institutions', 'mem@kth.se', 'app@uu.se'],
  ])('finds nothing with %s', (_name, memberEmail, applicantEmail) => {
    const member = person(1, memberEmail, 'Royal Institute of Technology');
    const other = person(10, applicantEmail, 'Uppsala University');
    expect(detect([member], [proposal(1, 10)], [other])).toEqual([]);
  });

  it('suggests an institutional conflict for the same institution once normalised', () => {
    const member = person(1, 'mem@gmail.com', 'The University of Oxford');
    const other = person(10, 'app@qq.com', 'university of oxford.');
    expect(detect([member], [proposal(1, 10)], [other])).toEqual([
      {
        proposalId: 1,
        userId: 1,
        type: 'institutional',
        state: 'suggested',
        evidence: [
          {
            kind: 'institution',
            person: 'The University of Oxford',
            applicant: 'university of oxford.',
            applicantName: 'Person 10',
          },
        ],
      },
    ]);
  });

  it("suggests a collaborator conflict when the member's list names an applicant, in any case", () => {
    const member = person(1, 'mem@kth.se', '', ['  APP@UU.SE ']);
    expect(detect([member], [proposal(1, 10)], [person(10, 'App@uu.se')])).toEqual([
      {
        proposalId: 1,
        userId: 1,
        type: 'collaborator',
        state: 'suggested',
        evidence: [
          {
            kind: 'collaboratorList',
            listedBy: 'person',
            email: 'App@uu.se',
            applicantName: 'Person 10',
          },
        ],
      },
    ]);
  });

  it("suggests a collaborator conflict when an applicant's list names the member", () => {
    const member = person(1, 'Mem@kth.se');
    const other = person(10, 'app@lu.se', '', ['mem@KTH.se']);
    expect(detect([member], [proposal(1, 10)], [other])).toEqual([
      {
        proposalId: 1,
        userId: 1,
        type: 'collaborator',
        state: 'suggested',
        evidence: [
          {
            kind: 'collaboratorList',
            listedBy: 'applicant',
            email: 'Mem@kth.se',
            applicantName: 'Person 10',
          },
        ],
      },
    ]);
  });

  it('suggests a collaborator conflict for a member who shares another proposal of the call', () => {
    const member = person(1, 'mem@kth.se');
    const other = person(10, 'app@lu.se');
    // Proposal 2 is the applicant's too, with the member as a collaborator on it.
    expect(detect([member], [proposal(1, 10), proposal(2, 10, [1])], [other])).toEqual([
      {
        proposalId: 1,
        userId: 1,
        type: 'collaborator',
        state: 'suggested',
        evidence: [
          {
            kind: 'sharedProposal',
            proposalId: 2,
            proposalName: 'Proposal 2',
            applicantName: 'Person 10',
          },
        ],
      },
      {
        proposalId: 2,
        userId: 1,
        type: 'author',
        state: 'confirmed',
        evidence: [{ kind: 'team', role: 'collaborator' }],
      },
    ]);
  });

  it('keeps every piece of evidence, strongest first, and takes its type from the strongest', () => {
    // Found in this order: the first applicant's domain and institution, then the second
    // applicant's shared proposal and collaborator list.
    const member = person(1, 'mem@cs.uu.se', 'Uppsala University');
    const second = person(11, 'two@lu.se', '', ['MEM@cs.uu.se']);
    const conflicts = detect(
      [member],
      [proposal(1, 10, [11]), proposal(2, 11, [1])],
      [applicant, second],
    );
    const first = conflicts.find((c) => c.proposalId === 1);
    expect(first?.type).toBe('collaborator');
    expect(first?.state).toBe('suggested');
    expect(first?.evidence.map((e) => e.kind)).toEqual([
      'collaboratorList',
      'sharedProposal',
      'domain',
      'institution',
    ]);
  });

  it('makes authorship win over every other match, confirmed', () => {
    // The author's institution and domain are the member's own: nothing but the team counts.
    const member = person(1, 'mem@uu.se', 'Uppsala University', ['app@uu.se']);
    expect(detect([member], [proposal(1, 10, [1])], [applicant])).toEqual([
      {
        proposalId: 1,
        userId: 1,
        type: 'author',
        state: 'confirmed',
        evidence: [{ kind: 'team', role: 'collaborator' }],
      },
    ]);
  });

  it('records a member listed twice (two roles) once, with each piece of evidence once', () => {
    const member = person(1, 'mem@cs.uu.se');
    const conflicts = detect([member, member], [proposal(1, 10)], [applicant]);
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]!.evidence).toHaveLength(1);
  });

  it('gives the same answer, sorted by proposal then member, whatever the input order', () => {
    const members = [
      person(3, 'three@cs.uu.se'),
      person(1, 'one@uu.se'),
      person(2, 'two@kth.se', '', ['app@uu.se']),
    ];
    const proposals = [proposal(5, 10), proposal(2, 10), proposal(4, 2)];
    const forward = detect(members, proposals, [applicant]);
    expect(forward.map((c) => [c.proposalId, c.userId])).toEqual([
      [2, 1],
      [2, 2],
      [2, 3],
      [4, 2],
      [5, 1],
      [5, 2],
      [5, 3],
    ]);
    expect(detect([...members].reverse(), [...proposals].reverse(), [applicant])).toEqual(forward);
  });

  it('never names anyone who is not a member of the committee', () => {
    const member = person(1, 'mem@kth.se');
    // Everything matches between these two applicants and the lookalike, but none is a member.
    const lookalike = person(20, 'look@cs.uu.se', 'Uppsala University', ['app@uu.se']);
    const partner = person(11, 'partner@uu.se', 'Uppsala University', ['look@cs.uu.se']);
    const conflicts = detect(
      [member],
      [proposal(1, 10), proposal(2, 11, [20]), proposal(3, 10, [20])],
      [applicant, partner, lookalike],
    );
    expect(conflicts).toEqual([]);
  });

  it('skips an applicant it has no facts about, but still records authorship', () => {
    const member = person(1, 'mem@uu.se');
    expect(detect([member], [proposal(1, 1, [99])])).toEqual([
      {
        proposalId: 1,
        userId: 1,
        type: 'author',
        state: 'confirmed',
        evidence: [{ kind: 'team', role: 'author' }],
      },
    ]);
  });
});

describe('reconcileConflicts', () => {
  const domain: ConflictEvidence = {
    kind: 'domain',
    person: 'cs.uu.se',
    applicant: 'uu.se',
    applicantName: 'Ana',
  };
  const found = (
    proposalId: number,
    userId: number,
    over: Partial<DetectedConflict> = {},
  ): DetectedConflict => ({
    proposalId,
    userId,
    type: 'institutional',
    state: 'suggested',
    evidence: [domain],
    ...over,
  });
  const row = (
    id: number,
    proposalId: number,
    userId: number,
    over: Partial<StoredConflict> = {},
  ): StoredConflict => ({
    id,
    proposalId,
    userId,
    type: 'institutional',
    source: 'detected',
    state: 'suggested',
    pinned: false,
    ...over,
  });
  const nothing = { insert: [], update: [], remove: [] };

  it('inserts the pairs it has no row for, as found', () => {
    const author = found(1, 2, {
      type: 'author',
      state: 'confirmed',
      evidence: [{ kind: 'team', role: 'author' }],
    });
    expect(reconcileConflicts([row(7, 1, 3)], [found(1, 3), found(1, 4), author])).toEqual({
      insert: [found(1, 4), author],
      update: [{ ...found(1, 3), id: 7 }],
      remove: [],
    });
  });

  it('keeps a dismissed suggestion dismissed, with the new evidence', () => {
    const stronger = found(1, 3, {
      type: 'collaborator',
      evidence: [
        { kind: 'collaboratorList', listedBy: 'person', email: 'ana@uu.se', applicantName: 'Ana' },
        domain,
      ],
    });
    expect(reconcileConflicts([row(7, 1, 3, { state: 'dismissed' })], [stronger])).toEqual({
      ...nothing,
      update: [{ ...stronger, id: 7, state: 'dismissed' }],
    });
  });

  it('keeps a suggestion a chair confirmed confirmed while it is still found', () => {
    expect(reconcileConflicts([row(7, 1, 3, { state: 'confirmed' })], [found(1, 3)])).toEqual({
      ...nothing,
      update: [{ ...found(1, 3, { state: 'confirmed' }), id: 7 }],
    });
  });

  it('removes a suggestion no longer found', () => {
    expect(reconcileConflicts([row(7, 1, 3), row(8, 1, 4)], [found(1, 4)])).toEqual({
      ...nothing,
      update: [{ ...found(1, 4), id: 8 }],
      remove: [7],
    });
  });

  it('keeps what a chair judged when it is no longer found: their judgement stands', () => {
    const stored = [row(7, 1, 3, { state: 'confirmed' }), row(8, 1, 4, { state: 'dismissed' })];
    expect(reconcileConflicts(stored, [])).toEqual(nothing);
  });

  it('removes the record of authorship once the person has left the team', () => {
    const author = row(7, 1, 3, { type: 'author', state: 'confirmed' });
    expect(reconcileConflicts([author], [])).toEqual({ ...nothing, remove: [7] });
  });

  it('hands a former author found by another match back to the chairs, as a suggestion', () => {
    const author = row(7, 1, 3, { type: 'author', state: 'confirmed' });
    expect(reconcileConflicts([author], [found(1, 3)])).toEqual({
      ...nothing,
      update: [{ ...found(1, 3), id: 7 }],
    });
  });

  it('confirms a suggestion, even a dismissed one, once the person joins the team', () => {
    const joined = found(1, 3, {
      type: 'author',
      state: 'confirmed',
      evidence: [{ kind: 'team', role: 'collaborator' }],
    });
    for (const state of ['suggested', 'dismissed'] as const)
      expect(reconcileConflicts([row(7, 1, 3, { state })], [joined])).toEqual({
        ...nothing,
        update: [{ ...joined, id: 7 }],
      });
  });

  it.each(['applicant', 'reviewer', 'chair'] as const)(
    'never touches a row with source %s, found or not',
    (source) => {
      const declared = row(7, 1, 3, { source, type: 'personal', state: 'confirmed' });
      const dismissed = row(8, 1, 4, { source, state: 'dismissed' });
      expect(reconcileConflicts([declared, dismissed], [found(1, 3)])).toEqual(nothing);
      expect(reconcileConflicts([declared, dismissed], [])).toEqual(nothing);
      const suggested = row(9, 1, 5, { source, state: 'suggested' });
      expect(reconcileConflicts([suggested], [])).toEqual(nothing);
    },
  );
});
