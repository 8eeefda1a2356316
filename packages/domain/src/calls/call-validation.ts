import { isProposalForm, isReviewForm, type FormType } from '../forms/form-types.js';
import { MAX_LENGTHS, addErrors, checkText, type FieldErrors } from '../validation/fields.js';
import { callDateErrors, type CallDates } from './windows.js';

export const callMessages = {
  notFound: 'There is no call with this id.',
  noTypes: 'Add at least one proposal type.',
  duplicateTypeName: 'Each proposal type needs a different name.',
  noProposalForm: 'Choose at least one proposal form.',
  noReviewForm: 'Choose at least one review form.',
  notProposalForm: 'Only proposal forms (types 0, 1, 4 and 5) can be proposal forms.',
  notReviewForm: 'Only review forms (types 2 and 3) can be review forms.',
  duplicateForm: 'A form can appear only once in each list.',
  unknownForm: 'This form does not exist.',
  committeeFixed: 'The committee of a call cannot be changed.',
  reviewOpenFixed:
    'Whether review is open to all members is set when the call is created and cannot be changed.',
  typeHasProposals: (name: string) =>
    `The proposal type "${name}" has proposals, so it cannot be deleted.`,
  proposalFormsLocked: (name: string) =>
    `The proposal forms of "${name}" cannot change: proposals of this type have been saved.`,
  reviewFormsLocked: (name: string) =>
    `The review forms of "${name}" cannot change: reviews of this type have been saved.`,
  imageTooLarge: 'The image cannot be larger than 500KB.',
  alreadyClosed: 'This call is already closed.',
  closedNoEdit: 'This call is closed and can no longer be changed.',
  notYetClosable: (reviewTermination: string) =>
    `This call can be closed once its review period has ended (${reviewTermination}).`,
  submissionClosed: 'Submission to this call is not open for you now.',
  notYourCommittee: 'You can create calls only for committees you chair.',
  staleCopy:
    'Someone else changed this call since you opened it. Reload it to see their changes, then make yours again.',
  typeNotInCall: 'This proposal type does not belong to this call.',
} as const;

export interface ProposalTypeInput {
  typeName: string;
  proposalForms: readonly number[];
  reviewForms: readonly number[];
}

/** A proposal type as saved, with whether saved work pins its forms (spec section 4, Call). */
export interface SavedProposalType {
  typeId: number;
  typeName: string;
  proposalForms: readonly number[];
  reviewForms: readonly number[];
  hasProposals: boolean;
  hasReviews: boolean;
}

const sameList = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * What saved work forbids in an edit of a call's types (spec section 4, Call): proposal
 * forms cannot change once proposals of the type exist, review forms once reviews do, and
 * a type with proposals cannot be deleted. Types named by an id the call does not have
 * are refused too.
 */
export function pinnedTypeErrors(
  saved: readonly SavedProposalType[],
  input: readonly (ProposalTypeInput & { typeId?: number | null })[],
): FieldErrors {
  const errors: FieldErrors = {};
  const byId = new Map(saved.map((t) => [t.typeId, t]));
  input.forEach((type, i) => {
    if (!type.typeId) return;
    const current = byId.get(type.typeId);
    if (!current) {
      addErrors(errors, `proposalTypes.${i}.typeId`, [callMessages.typeNotInCall]);
      return;
    }
    if (current.hasProposals && !sameList(current.proposalForms, type.proposalForms))
      addErrors(errors, `proposalTypes.${i}.proposalForms`, [
        callMessages.proposalFormsLocked(current.typeName),
      ]);
    if (current.hasReviews && !sameList(current.reviewForms, type.reviewForms))
      addErrors(errors, `proposalTypes.${i}.reviewForms`, [
        callMessages.reviewFormsLocked(current.typeName),
      ]);
  });
  const kept = new Set(input.map((t) => t.typeId).filter(Boolean));
  for (const type of saved)
    if (!kept.has(type.typeId) && type.hasProposals)
      addErrors(errors, 'proposalTypes', [callMessages.typeHasProposals(type.typeName)]);
  return errors;
}

/**
 * Page 1 of the wizard: at least one type, each with a name (unique, at most 50), at
 * least one proposal form and one review form of the right kinds, each once.
 * `formTypes` maps form id to its form type (0-5); unknown ids are refused.
 */
export function proposalTypeErrors(
  types: readonly ProposalTypeInput[],
  formTypes: ReadonlyMap<number, FormType>,
): FieldErrors {
  const errors: FieldErrors = {};
  if (types.length === 0) addErrors(errors, 'proposalTypes', [callMessages.noTypes]);
  const seen = new Set<string>();
  types.forEach((type, i) => {
    const at = `proposalTypes.${i}`;
    const nameProblems = checkText(type.typeName, {
      required: true,
      max: MAX_LENGTHS.proposalTypeName,
    });
    const key = type.typeName.trim().toLowerCase();
    if (nameProblems.length === 0 && seen.has(key))
      nameProblems.push(callMessages.duplicateTypeName);
    seen.add(key);
    addErrors(errors, `${at}.typeName`, nameProblems);
    addErrors(
      errors,
      `${at}.proposalForms`,
      formListProblems(
        type.proposalForms,
        formTypes,
        isProposalForm,
        callMessages.noProposalForm,
        callMessages.notProposalForm,
      ),
    );
    addErrors(
      errors,
      `${at}.reviewForms`,
      formListProblems(
        type.reviewForms,
        formTypes,
        isReviewForm,
        callMessages.noReviewForm,
        callMessages.notReviewForm,
      ),
    );
  });
  return errors;
}

function formListProblems(
  ids: readonly number[],
  formTypes: ReadonlyMap<number, FormType>,
  fits: (type: FormType) => boolean,
  emptyMessage: string,
  wrongKindMessage: string,
): string[] {
  if (ids.length === 0) return [emptyMessage];
  const problems = new Set<string>();
  if (new Set(ids).size !== ids.length) problems.add(callMessages.duplicateForm);
  for (const id of ids) {
    const type = formTypes.get(id);
    if (type === undefined) problems.add(callMessages.unknownForm);
    else if (!fits(type)) problems.add(wrongKindMessage);
  }
  return [...problems];
}

/** Whether the wizard's Next is enabled on the forms page (spec section 5, Call). */
export function formsPageComplete(types: readonly ProposalTypeInput[]): boolean {
  return (
    types.length > 0 && types.every((t) => t.proposalForms.length > 0 && t.reviewForms.length > 0)
  );
}

export interface CallDetailsInput extends CallDates {
  name: string;
  committee: number | null | undefined;
}

/** Page 0 of the wizard: committee and name required, name at most 255, the date order. */
export function callDetailsErrors(input: CallDetailsInput): FieldErrors {
  const errors: FieldErrors = {};
  if (!input.committee) addErrors(errors, 'committee', ['This field is required.']);
  addErrors(errors, 'name', checkText(input.name, { required: true, max: MAX_LENGTHS.callName }));
  for (const [field, problems] of Object.entries(callDateErrors(input)))
    addErrors(errors, field, problems);
  return errors;
}
