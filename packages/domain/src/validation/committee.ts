import { MAX_LENGTHS, addErrors, checkText, type FieldErrors } from './fields.js';

export const committeeMessages = {
  nameTaken: 'A committee with this name already exists.',
  inUse: 'In use: this committee has roles or calls, so it cannot be deleted.',
} as const;

/** A committee's name (spec section 5, Committee): required, at most 100 characters. */
export function validateCommittee(input: { name?: string | null }): FieldErrors {
  const errors: FieldErrors = {};
  addErrors(
    errors,
    'name',
    checkText(input.name, { required: true, max: MAX_LENGTHS.committeeName }),
  );
  return errors;
}

/**
 * The key two committee names clash on: names are unique whatever their case and
 * surrounding spaces, as the database's unique index on lower(name) also insists.
 */
export const committeeNameKey = (name: string) => name.trim().toLowerCase();
