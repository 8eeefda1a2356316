import type { ConflictEvidenceBody, ConflictItem } from '@merit/contract';
import {
  CONFLICT_TYPE_LABELS,
  DECLARED_CONFLICT_TYPES,
  type DeclaredConflictType,
} from '@merit/domain';

/** What matched, in plain words, so a chair can judge a suggestion in one look. */
export function evidenceText(evidence: ConflictEvidenceBody): string {
  switch (evidence.kind) {
    case 'team':
      return evidence.role === 'author' ? 'Author of the proposal' : 'Collaborator on the proposal';
    case 'domain':
      return `Same mail domain: ${evidence.person} / ${evidence.applicant} (${evidence.applicantName})`;
    case 'institution':
      return `Same institution: ${evidence.person} / ${evidence.applicant} (${evidence.applicantName})`;
    case 'collaboratorList':
      return evidence.listedBy === 'person'
        ? `Lists ${evidence.applicantName} (${evidence.email}) as a recent collaborator`
        : `Listed as a recent collaborator by ${evidence.applicantName} (${evidence.email})`;
    case 'sharedProposal':
      return `Shared proposal: ${evidence.proposalName} with ${evidence.applicantName}`;
  }
}

/** The choices of a conflict's kind, for the selects of the panel, the gate and Add Conflict. */
export const DECLARED_TYPE_OPTIONS = DECLARED_CONFLICT_TYPES.map((type) => ({
  value: type,
  label: CONFLICT_TYPE_LABELS[type],
}));

export const isDeclaredType = (value: string): value is DeclaredConflictType =>
  (DECLARED_CONFLICT_TYPES as readonly string[]).includes(value);

/** "Grace Hopper with “Dark matter survey”": a conflict named in a button's label. */
export const conflictName = (conflict: Pick<ConflictItem, 'userName' | 'proposalName'>) =>
  `${conflict.userName} with “${conflict.proposalName}”`;
