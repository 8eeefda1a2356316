import type {
  CallProposal,
  formOrder,
  MyProposal,
  ProposalAbilities,
  ProposalDetail,
} from '@merit/contract';
import type { z } from 'zod';

/** GET /proposal_form_order/{callId}/ (the contract names no type for it). */
type FormOrder = z.infer<typeof formOrder>;

/** Test data only: what the author of a draft may do while the call is open. */
export const authorDraftAbilities: ProposalAbilities = {
  view: true,
  edit: true,
  submit: true,
  retract: false,
  manageCollaborators: true,
  delete: true,
  lock: true,
  review: false,
  viewReviews: false,
  manageReviewers: false,
  viewDecision: false,
  editDecision: false,
  declareConflicts: true,
  viewConflicts: true,
  manageConflicts: false,
  answerDeclaration: false,
  viewHistory: false,
  decide: false,
  viewOutcome: false,
};

/** What a chair, or a member, may do with someone else's proposal: read it. */
export const readerAbilities: ProposalAbilities = {
  view: true,
  edit: false,
  submit: false,
  retract: false,
  manageCollaborators: false,
  delete: false,
  lock: false,
  review: false,
  viewReviews: false,
  manageReviewers: false,
  viewDecision: false,
  editDecision: false,
  declareConflicts: false,
  viewConflicts: false,
  manageConflicts: false,
  answerDeclaration: false,
  viewHistory: false,
  decide: false,
  viewOutcome: false,
};

/**
 * Test data only: a draft of call 12 (calls.fixtures' makeCall) of type 40, written by
 * user 7 (fixtures' makeUser), as GET /proposals/{id}/ sends it.
 */
export function makeProposal(overrides: Partial<ProposalDetail> = {}): ProposalDetail {
  return {
    id: 30,
    callId: 12,
    callName: 'Beamtime 2026',
    proposalName: 'Dark matter survey',
    author: 'Ada Lovelace',
    authorId: 7,
    authorEmail: 'ada@example.org',
    proposalTypeId: 40,
    proposalTypeName: 'Standard',
    state: 'Draft',
    stateVal: 0,
    collaboratorIds: [],
    collaborators: [],
    lockHolder: null,
    created: '2026-03-02T00:00:00.000Z',
    lastModified: '2026-03-02T00:00:00.000Z',
    responses: {},
    entries: {},
    abilities: authorDraftAbilities,
    ...overrides,
  };
}

/**
 * The forms of type 40: Project Details (one entry; a required title and a summary of
 * at most 5 words) and Team Members (a multi-entry form with a required name).
 */
export function makeFormOrder(): FormOrder {
  return [
    {
      typeId: 40,
      typeName: 'Standard',
      forms: [
        {
          id: 1,
          name: 101,
          display_name: 'Project Details',
          type: 0,
          version: '1.0',
          jsonSchema: {
            type: 'object',
            required: ['title'],
            properties: {
              title: { type: 'string', title: 'Project title' },
              summary: { type: 'string', title: 'Summary' },
            },
          },
          uiSchema: {
            summary: { 'ui:widget': 'textarea', 'ui:options': { maxWords: 5 } },
          },
          initialData: null,
          options: null,
        },
        {
          id: 3,
          name: 103,
          display_name: 'Team Members',
          type: 1,
          version: '1.0',
          jsonSchema: {
            type: 'object',
            // Headed by the form's name already: the editor leaves this title out.
            title: 'Team members',
            description: 'Everyone who works on the project.',
            required: ['full_name'],
            properties: { full_name: { type: 'string', title: 'Full name' } },
          },
          uiSchema: {},
          initialData: null,
          options: null,
        },
      ],
    },
  ];
}

export function makeMyProposal(overrides: Partial<MyProposal> = {}): MyProposal {
  return {
    id: 30,
    callId: 12,
    callName: 'Beamtime 2026',
    proposalName: 'Dark matter survey',
    proposalTypeName: 'Standard',
    state: 'Draft',
    stateVal: 0,
    lastModified: '2026-03-02T00:00:00.000Z',
    role: 'Author',
    ...overrides,
  };
}

export function makeCallProposal(overrides: Partial<CallProposal> = {}): CallProposal {
  return {
    id: 30,
    proposalName: 'Dark matter survey',
    proposalTypeId: 40,
    proposalTypeName: 'Standard',
    author: 'Ada Lovelace',
    authorId: 7,
    state: 'Draft',
    stateVal: 0,
    lastModified: '2026-03-02T00:00:00.000Z',
    editable: true,
    ...overrides,
  };
}
