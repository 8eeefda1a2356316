import type { ConflictEvidenceBody } from '@merit/contract';
import { describe, expect, it } from 'vitest';
import { evidenceText } from './conflict-words';

describe('evidenceText', () => {
  it.each<[string, ConflictEvidenceBody, string]>([
    ['author', { kind: 'team', role: 'author' }, 'Author of the proposal'],
    ['collaborator', { kind: 'team', role: 'collaborator' }, 'Collaborator on the proposal'],
    [
      'mail domain',
      { kind: 'domain', person: 'cs.uu.se', applicant: 'uu.se', applicantName: 'Ann Applicant' },
      'Same mail domain: cs.uu.se / uu.se (Ann Applicant)',
    ],
    [
      'institution',
      {
        kind: 'institution',
        person: 'The University of Oslo',
        applicant: 'University of Oslo',
        applicantName: 'Ann Applicant',
      },
      'Same institution: The University of Oslo / University of Oslo (Ann Applicant)',
    ],
    [
      'the member’s list',
      { kind: 'collaboratorList', listedBy: 'person', email: 'ann@uu.se', applicantName: 'Ann' },
      'Lists Ann (ann@uu.se) as a recent collaborator',
    ],
    [
      'the applicant’s list',
      { kind: 'collaboratorList', listedBy: 'applicant', email: 'bo@kth.se', applicantName: 'Ann' },
      'Listed as a recent collaborator by Ann (bo@kth.se)',
    ],
    [
      'shared proposal',
      { kind: 'sharedProposal', proposalId: 31, proposalName: 'X', applicantName: 'Ann' },
      'Shared proposal: X with Ann',
    ],
  ])('%s', (_name, evidence, text) => {
    expect(evidenceText(evidence)).toBe(text);
  });
});
