import {
  addErrors,
  checkText,
  MAX_LENGTHS,
  validationMessages,
  type FieldErrors,
} from '@merit/domain';

/** Proposal Name: required, at most 100 characters (spec section 5, Proposal). */
export function proposalNameErrors({ name }: { name: string }): FieldErrors {
  const errors: FieldErrors = {};
  addErrors(errors, 'name', checkText(name, { required: true, max: MAX_LENGTHS.proposalName }));
  return errors;
}

/** The Create Proposal panel: a name, and one of the call's proposal types. */
export function newProposalErrors(values: { name: string; type: string }): FieldErrors {
  const errors = proposalNameErrors(values);
  if (!values.type) errors.type = [validationMessages.required];
  return errors;
}
