import type { ProposalFile } from '@merit/contract';

/**
 * Test data only: a PDF in the `cv` field of form 1 of proposal 30 (proposals.fixtures'
 * makeProposal), uploaded by its author, as GET /proposal_files/30/ sends it.
 */
export function makeProposalFile(overrides: Partial<ProposalFile> = {}): ProposalFile {
  return {
    id: 12,
    name: 'cv.pdf',
    size: 245_760,
    contentType: 'application/pdf',
    formId: 1,
    field: 'cv',
    uploadedBy: 'Ada Lovelace',
    uploaded: '2026-03-02T10:00:00.000Z',
    uploadId: 'a1b2c3',
    ...overrides,
  };
}
