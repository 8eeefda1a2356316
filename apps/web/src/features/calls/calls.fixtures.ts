import type { CallDetail, CallSummary, Form, ProposalType } from '@merit/contract';

/** Test data only: a call as GET /calls/{id}/ sends it, open for submissions in 2026. */
export function makeCall(overrides: Partial<CallDetail> = {}): CallDetail {
  return {
    id: 12,
    name: 'Beamtime 2026',
    committeeId: 3,
    committeeName: 'Synchrotron',
    commencement: '2026-03-01T00:00:00.000Z',
    termination: '2026-04-01T00:00:00.000Z',
    reviewCommencement: '2026-04-02T00:00:00.000Z',
    reviewTermination: '2026-05-01T00:00:00.000Z',
    isReviewOpen: false,
    conflicts: { enabled: true, declarationRequired: true },
    closed: false,
    myRoles: [],
    abilities: {
      view: true,
      edit: false,
      manage: false,
      close: false,
      manageExtensions: false,
      addProposal: false,
      assign: false,
      bid: false,
      followReview: false,
      remind: false,
      decide: false,
      releaseDecisions: false,
    },
    description: '<p>Apply for <strong>beam time</strong>.</p>',
    created: '2026-01-10T00:00:00.000Z',
    lastModified: '2026-01-10T00:00:00.000Z',
    version: 1,
    proposalTypes: [makeProposalType()],
    extensions: [],
    ...overrides,
  };
}

export function makeSummary(overrides: Partial<CallSummary> = {}): CallSummary {
  const {
    description: _description,
    created: _created,
    lastModified: _lastModified,
    proposalTypes: _types,
    extensions: _extensions,
    version: _version,
    ...summary
  } = makeCall();
  return { ...summary, ...overrides };
}

export function makeProposalType(overrides: Partial<ProposalType> = {}): ProposalType {
  return {
    typeId: 40,
    typeName: 'Standard',
    proposalForms: [1],
    reviewForms: [2],
    proposalFormDetails: [
      { id: 1, name: 101, display_name: 'Project Details', type: 0, version: '1.0' },
    ],
    reviewFormDetails: [
      { id: 2, name: 102, display_name: 'Science Review', type: 2, version: '1.0' },
    ],
    hasProposals: false,
    hasReviews: false,
    ...overrides,
  };
}

export const chairAbilities = {
  view: true,
  edit: true,
  manage: true,
  close: false,
  manageExtensions: true,
  addProposal: true,
  assign: true,
  bid: false,
  followReview: true,
  remind: true,
  decide: true,
  releaseDecisions: false,
};

export function makeForm(id: number, displayName: string, type: Form['type']): Form {
  return {
    id,
    name: 100 + id,
    display_name: displayName,
    type,
    version: '1.0',
    jsonSchema: { type: 'object' },
    uiSchema: {},
    initialData: null,
    options: null,
    isUsed: false,
  };
}
