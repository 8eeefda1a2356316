/**
 * Form types (spec section 3). A form name carries one of these numbers; every form of
 * that name is of its type. The number is stored, so the order here is fixed.
 */
export const FORM_TYPES = [0, 1, 2, 3, 4, 5] as const;
export type FormType = (typeof FORM_TYPES)[number];

export const FORM_TYPE_LABELS: Record<FormType, string> = {
  0: 'Proposal Form',
  1: 'Proposal Multi Form',
  2: 'Review Form',
  3: 'Review Score Form',
  4: 'Proposal Resource Form',
  5: 'Proposal Resource Multi Form',
};

export function isFormType(value: unknown): value is FormType {
  return typeof value === 'number' && (FORM_TYPES as readonly number[]).includes(value);
}

/** Forms an author fills in on a proposal: types 0, 1, 4 and 5. */
export const isProposalForm = (type: FormType) =>
  type === 0 || type === 1 || type === 4 || type === 5;
/** Forms a reviewer fills in: types 2 and 3. */
export const isReviewForm = (type: FormType) => type === 2 || type === 3;
/** Forms with any number of entries per proposal (Add Another): types 1 and 5. */
export const isMultiForm = (type: FormType) => type === 1 || type === 5;
/** The Review Score Form, whose options name the score fields: type 3. */
export const isScoreForm = (type: FormType) => type === 3;
/** Forms that request facility resources, whose options name the facility and data fields: types 4 and 5. */
export const isResourceForm = (type: FormType) => type === 4 || type === 5;
/** Types 3, 4 and 5 carry an options object; the others have none (null). */
export const hasOptions = (type: FormType) => isScoreForm(type) || isResourceForm(type);
