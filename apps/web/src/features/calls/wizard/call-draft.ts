import type { CallDetail, CallSave } from '@merit/contract';
import {
  callDetailsErrors,
  proposalTypeErrors,
  validationMessages,
  type FieldErrors,
  type FormType,
} from '@merit/domain';
import { fromLocalInputValue, toLocalInputValue } from '../call-dates';

/** The four dates of page 0, as their `datetime-local` inputs hold them. */
export const DATE_FIELDS = [
  'openDateTime',
  'closeDateTime',
  'reviewOpenDateTime',
  'reviewCloseDateTime',
] as const;
export type DateField = (typeof DATE_FIELDS)[number];

export const DETAIL_LABELS: Record<string, string> = {
  committee: 'Committee',
  name: 'Name',
  openDateTime: 'Submission opens',
  closeDateTime: 'Submission deadline',
  reviewOpenDateTime: 'Review starts',
  reviewCloseDateTime: 'Review deadline',
  isReviewOpen: 'Review open to all committee members',
  conflictsEnabled: 'Record and enforce conflicts of interest',
  declarationRequired: 'Members declare conflicts before reading a proposal',
  // The server's names for them.
  'conflicts.enabled': 'Record and enforce conflicts of interest',
  'conflicts.declarationRequired': 'Members declare conflicts before reading a proposal',
  description: 'Description',
  proposalTypes: 'Proposal types',
};

export interface TypeDraft {
  /** Stable across renames and reordering, for React keys. */
  key: string;
  /** Null for a type added in this wizard. */
  typeId: number | null;
  typeName: string;
  /** The name the server knows the type by: its messages about saved work use it. */
  savedName: string;
  proposalForms: number[];
  reviewForms: number[];
  /** Saved proposals exist: the type stays, and its proposal forms cannot change. */
  hasProposals: boolean;
  /** Saved reviews exist: its review forms cannot change. */
  hasReviews: boolean;
}

export interface CallDraft extends Record<DateField, string> {
  /** The committee id as the select holds it; empty until one is chosen. */
  committee: string;
  name: string;
  isReviewOpen: boolean;
  /** Conflicts of interest are recorded, detected and enforced (both on for a new call). */
  conflictsEnabled: boolean;
  /** Members say whether they have a conflict before a proposal opens for them. */
  declarationRequired: boolean;
  /** Rich text (HTML); empty when the editor is empty. */
  description: string;
  proposalTypes: TypeDraft[];
  /** The saved call's dates, as exact as the server holds them (see `instantOf`). */
  savedInstants: Partial<Record<DateField, string>>;
}

/** A form as the wizard shows and checks it. */
export interface FormChoice {
  id: number;
  display_name: string;
  type: FormType;
  version: string;
}

let nextKey = 0;
export const newTypeKey = () => `type-${++nextKey}`;

export function newTypeDraft(): TypeDraft {
  return {
    key: newTypeKey(),
    typeId: null,
    typeName: '',
    savedName: '',
    proposalForms: [],
    reviewForms: [],
    hasProposals: false,
    hasReviews: false,
  };
}

export function emptyDraft(committee = ''): CallDraft {
  return {
    committee,
    name: '',
    openDateTime: '',
    closeDateTime: '',
    reviewOpenDateTime: '',
    reviewCloseDateTime: '',
    isReviewOpen: false,
    conflictsEnabled: true,
    declarationRequired: true,
    description: '',
    proposalTypes: [newTypeDraft()],
    savedInstants: {},
  };
}

export function draftOf(call: CallDetail): CallDraft {
  return {
    committee: String(call.committeeId),
    name: call.name,
    openDateTime: toLocalInputValue(call.commencement),
    closeDateTime: toLocalInputValue(call.termination),
    reviewOpenDateTime: toLocalInputValue(call.reviewCommencement),
    reviewCloseDateTime: toLocalInputValue(call.reviewTermination),
    isReviewOpen: call.isReviewOpen,
    conflictsEnabled: call.conflicts.enabled,
    declarationRequired: call.conflicts.declarationRequired,
    description: call.description,
    proposalTypes: call.proposalTypes.map((type) => ({
      key: newTypeKey(),
      typeId: type.typeId,
      typeName: type.typeName,
      savedName: type.typeName,
      proposalForms: [...type.proposalForms],
      reviewForms: [...type.reviewForms],
      hasProposals: type.hasProposals,
      hasReviews: type.hasReviews,
    })),
    savedInstants: {
      openDateTime: call.commencement,
      closeDateTime: call.termination,
      reviewOpenDateTime: call.reviewCommencement,
      reviewCloseDateTime: call.reviewTermination,
    },
  };
}

/**
 * The instant a date field names. Its input shows whole minutes, but a call saved through
 * the API may have seconds: while the input still shows the saved minute, the saved
 * instant stands, so saving a call never moves a deadline the user did not change.
 */
export function instantOf(draft: CallDraft, field: DateField): Date | null {
  const saved = draft.savedInstants[field];
  if (saved !== undefined && draft[field] === toLocalInputValue(saved)) return new Date(saved);
  return fromLocalInputValue(draft[field]);
}

/** The forms a saved call already uses, so their names show even without the catalogue. */
export function formsOfCall(call: CallDetail | undefined): FormChoice[] {
  if (!call) return [];
  return call.proposalTypes.flatMap((type) =>
    [...type.proposalFormDetails, ...type.reviewFormDetails].map((form) => ({
      id: form.id,
      display_name: form.display_name,
      type: form.type as FormType,
      version: form.version,
    })),
  );
}

/**
 * Page 0's rules (spec section 5, Call): the domain's, which the server applies too,
 * plus every date being filled in, which the date order rules take for granted.
 */
export function detailsErrors(draft: CallDraft): FieldErrors {
  const dates = Object.fromEntries(
    DATE_FIELDS.map((field) => [field, instantOf(draft, field)]),
  ) as Record<DateField, Date | null>;
  const errors: FieldErrors = {};
  for (const field of DATE_FIELDS) {
    if (!dates[field]) errors[field] = [validationMessages.required];
  }
  const domainErrors = callDetailsErrors({
    committee: draft.committee ? Number(draft.committee) : null,
    name: draft.name,
    // A missing date is reported above; NaN compares false, so no order message follows.
    commencement: dates.openDateTime ?? new Date(NaN),
    termination: dates.closeDateTime ?? new Date(NaN),
    reviewCommencement: dates.reviewOpenDateTime ?? new Date(NaN),
    reviewTermination: dates.reviewCloseDateTime ?? new Date(NaN),
  });
  return { ...domainErrors, ...errors };
}

/** Page 1's rules: names, and forms of the right kind, each once per list. */
export function typesErrors(draft: CallDraft, forms: readonly FormChoice[]): FieldErrors {
  const formTypes = new Map(forms.map((form) => [form.id, form.type]));
  return proposalTypeErrors(draft.proposalTypes, formTypes);
}

/**
 * The POST /new_call/ body. An edit names the version of the call it was made on, so
 * the server refuses it (409) instead of overwriting what another chair saved since.
 */
export function toCallSave(
  draft: CallDraft,
  saved: Pick<CallDetail, 'id' | 'version'> | null,
): CallSave {
  const iso = (field: DateField) => instantOf(draft, field)?.toISOString() ?? '';
  return {
    new: saved === null,
    id: saved?.id ?? null,
    ...(saved ? { version: saved.version } : {}),
    committee: Number(draft.committee),
    name: draft.name.trim(),
    openDateTime: iso('openDateTime'),
    closeDateTime: iso('closeDateTime'),
    reviewOpenDateTime: iso('reviewOpenDateTime'),
    reviewCloseDateTime: iso('reviewCloseDateTime'),
    isReviewOpen: draft.isReviewOpen,
    conflicts: {
      enabled: draft.conflictsEnabled,
      // Without conflicts there is nothing to declare.
      declarationRequired: draft.conflictsEnabled && draft.declarationRequired,
    },
    description: draft.description,
    proposalTypes: draft.proposalTypes.map((type) => ({
      typeName: type.typeName.trim(),
      typeId: type.typeId,
      proposalForms: type.proposalForms,
      reviewForms: type.reviewForms,
    })),
  };
}

/** The wizard page holding a field the server refused: 0 details, 1 forms. */
export function pageOfField(field: string): 0 | 1 {
  return field.startsWith('proposalTypes') ? 1 : 0;
}

/** Names for the server's field keys in the red list, e.g. `proposalTypes.0.reviewForms`. */
export function errorLabels(draft: CallDraft): Record<string, string> {
  const labels: Record<string, string> = { ...DETAIL_LABELS };
  draft.proposalTypes.forEach((type, i) => {
    const name = type.typeName.trim() || `Proposal type ${i + 1}`;
    labels[`proposalTypes.${i}.typeName`] = `${name}, name`;
    labels[`proposalTypes.${i}.proposalForms`] = `${name}, proposal forms`;
    labels[`proposalTypes.${i}.reviewForms`] = `${name}, review forms`;
    labels[`proposalTypes.${i}.typeId`] = name;
  });
  return labels;
}
