/*
 * The chair's review progress (issue 28): per member, per proposal and for the call.
 * The server counts in SQL; these are the rules its numbers follow, for both sides.
 */

/** A member's reviews of a call as the Progress page shows them. */
export interface MemberProgressCounts {
  assigned: number;
  saved: number;
  notStarted: number;
  overdue: number;
}

/**
 * From a member's assignments (each saved or not) and the review window: a review not
 * saved is "not started"; once review has closed while the call is open, it is overdue.
 */
export function memberProgress(
  assignments: readonly { saved: boolean }[],
  call: { reviewTermination: Date; closed: boolean },
  now: Date,
): MemberProgressCounts {
  const saved = assignments.filter((a) => a.saved).length;
  return memberProgressOfCounts({ assigned: assignments.length, saved }, call, now);
}

/**
 * `memberProgress` from the counts alone, for a server that counts a whole call's
 * assignments in SQL (progress.queries.ts) rather than reading each one out.
 */
export function memberProgressOfCounts(
  counts: { assigned: number; saved: number },
  call: { reviewTermination: Date; closed: boolean },
  now: Date,
): MemberProgressCounts {
  const { assigned, saved } = counts;
  const notStarted = assigned - saved;
  const late = !call.closed && now.getTime() >= call.reviewTermination.getTime();
  return { assigned, saved, notStarted, overdue: late ? notStarted : 0 };
}

/** The spread of a proposal's review scores; nulls when it has none. */
export interface ScoreSpread {
  min: number | null;
  max: number | null;
  /** Population standard deviation; 0 for one score. */
  sd: number | null;
}

export function scoreSpread(scores: readonly (number | null)[]): ScoreSpread {
  const values = scores.filter((s): s is number => s !== null && Number.isFinite(s));
  if (values.length === 0) return { min: null, max: null, sd: null };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  return { min: Math.min(...values), max: Math.max(...values), sd: Math.sqrt(variance) };
}

/**
 * A spread wide enough that the committee should talk about it: at least twice the median
 * spread of the call's proposals whose reviewers disagree at all (a spread above 0), so a
 * call where most reviewers agree still marks the few where they do not.
 */
export function wideSpreadThreshold(sds: readonly (number | null)[]): number | null {
  const values = sds.filter((s): s is number => s !== null && s > 0).sort((a, b) => a - b);
  if (values.length === 0) return null;
  const middle = Math.floor(values.length / 2);
  const median = values.length % 2 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
  return 2 * median;
}

/** The share of a member's reviews saved, 0 to 100 (100 with nothing assigned). */
export const progressPercent = (counts: Pick<MemberProgressCounts, 'assigned' | 'saved'>) =>
  counts.assigned === 0 ? 100 : Math.round((100 * counts.saved) / counts.assigned);
