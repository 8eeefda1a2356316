import { roleMessages } from '../validation/role.js';
import {
  MAX_LENGTHS,
  addErrors,
  checkText,
  validationMessages,
  type FieldErrors,
} from '../validation/fields.js';
import type { TimeWindow } from './windows.js';

export const extensionMessages = {
  overlaps:
    'This person already has an extension to this call that overlaps these dates. Change the dates, or delete that extension first.',
} as const;

export interface ExtensionInput {
  user: number | null | undefined;
  /** Null when the field is empty or not a date. */
  commencement: Date | null;
  termination: Date | null;
  reason: string;
}

/** Two windows [start, end) share an instant; windows that only touch do not overlap. */
export function windowsOverlap(a: TimeWindow, b: TimeWindow): boolean {
  return (
    a.commencement.getTime() < b.termination.getTime() &&
    b.commencement.getTime() < a.termination.getTime()
  );
}

/**
 * An extension from the chair's dialog (spec section 3, Extension): a user, both dates,
 * the end not before the start, a reason of at most 200 characters, and no overlap with
 * another extension the same person has on the same call (`othersOfUser`), since two
 * overlapping windows would say two things about one moment.
 */
export function extensionErrors(
  input: ExtensionInput,
  othersOfUser: readonly TimeWindow[],
): FieldErrors {
  const errors: FieldErrors = {};
  if (!input.user) addErrors(errors, 'user', [validationMessages.required]);
  if (!input.commencement) addErrors(errors, 'commencement', [validationMessages.required]);
  if (!input.termination) addErrors(errors, 'termination', [validationMessages.required]);
  else if (input.commencement && input.termination < input.commencement)
    addErrors(errors, 'termination', [roleMessages.terminationBeforeCommencement]);
  addErrors(errors, 'reason', checkText(input.reason, { max: MAX_LENGTHS.extensionReason }));
  if (input.commencement && input.termination && !errors.termination) {
    const window = { commencement: input.commencement, termination: input.termination };
    if (othersOfUser.some((other) => windowsOverlap(window, other)))
      addErrors(errors, 'commencement', [extensionMessages.overlaps]);
  }
  return errors;
}
