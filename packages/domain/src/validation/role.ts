import { isStorableDate } from '../dates.js';
import { COMMITTEE_ROLES, type CommitteeRoleName } from '../roles.js';
import {
  MAX_LENGTHS,
  addErrors,
  checkText,
  validationMessages,
  type FieldErrors,
} from './fields.js';

export const roleMessages = {
  /** Spec section 5, Role. */
  terminationBeforeCommencement: 'Termination date can not be before the commencement date.',
  role: 'Choose CHAIR or MEMBER.',
  date: 'Enter a date as YYYY-MM-DD, or a date and time with its time zone such as 2026-07-01T09:00:00+10:00.',
  committeeMissing: 'There is no committee with this id.',
  overlaps:
    'This user already has a role on this committee during these dates. Change that role instead of adding another.',
} as const;

export interface RoleInput {
  committeeId?: number | null;
  role?: string | null;
  commencement?: string | null;
  termination?: string | null;
}

export interface RoleValues {
  committeeId: number;
  role: CommitteeRoleName;
  commencement: Date;
  termination: Date;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A role date from the form. A full ISO 8601 date and time must carry its time zone,
 * because a role's edges decide who may act. A bare date is taken in UTC: the start of
 * the day for `start` (commencement) and its last millisecond for `end` (termination),
 * so "effective until 2026-12-31" includes that whole day. Null when not a real date.
 */
export function parseRoleDate(value: string, edge: 'start' | 'end'): Date | null {
  const text = value.trim();
  const isDateOnly = DATE_ONLY.test(text);
  if (!isDateOnly && !DATE_TIME.test(text)) return null;
  if (!isCalendarDate(text.slice(0, 10))) return null;
  let date = new Date(isDateOnly ? `${text}T00:00:00.000Z` : text);
  if (Number.isNaN(date.getTime())) return null;
  if (isDateOnly && edge === 'end') date = new Date(date.getTime() + DAY_MS - 1);
  return isStorableDate(date) ? date : null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** JavaScript rolls 2026-02-30 over into March; a real calendar date reads back the same. */
function isCalendarDate(ymd: string): boolean {
  const date = new Date(`${ymd}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === ymd;
}

/**
 * A committee role from the role form (spec section 5, Role): committee, role (CHAIR or
 * MEMBER) and both dates required, and termination not before commencement. Whether the
 * committee exists is the caller's question.
 */
export function validateRole(
  input: RoleInput,
): { ok: true; value: RoleValues } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (input.committeeId == null) addErrors(errors, 'committeeId', [validationMessages.required]);
  if (!input.role) addErrors(errors, 'role', [validationMessages.required]);
  else if (!(COMMITTEE_ROLES as readonly string[]).includes(input.role))
    addErrors(errors, 'role', [roleMessages.role]);
  const date = (field: 'commencement' | 'termination', edge: 'start' | 'end') => {
    const problems = checkText(input[field], { required: true, max: MAX_LENGTHS.roleDates });
    if (problems.length > 0) {
      addErrors(errors, field, problems);
      return null;
    }
    const parsed = parseRoleDate(input[field]!, edge);
    if (!parsed) addErrors(errors, field, [roleMessages.date]);
    return parsed;
  };
  const commencement = date('commencement', 'start');
  const termination = date('termination', 'end');
  if (commencement && termination && termination.getTime() < commencement.getTime())
    addErrors(errors, 'termination', [roleMessages.terminationBeforeCommencement]);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      committeeId: input.committeeId!,
      role: input.role as CommitteeRoleName,
      commencement: commencement!,
      termination: termination!,
    },
  };
}

/**
 * A role that shares a moment with another role of the same user on the same committee
 * would say two things about that moment (chair and member, or the same role twice), so
 * it is refused. Role periods include both ends ([commencement, termination]).
 */
export function roleOverlapErrors(
  role: RoleValues,
  othersOnCommittee: readonly { commencement: Date; termination: Date }[],
): FieldErrors {
  const overlaps = othersOnCommittee.some(
    (other) =>
      role.commencement.getTime() <= other.termination.getTime() &&
      other.commencement.getTime() <= role.termination.getTime(),
  );
  return overlaps ? { commencement: [roleMessages.overlaps] } : {};
}
