import { describe, expect, it } from 'vitest';
import {
  memberProgress,
  memberProgressOfCounts,
  progressPercent,
  scoreSpread,
  wideSpreadThreshold,
} from './progress.js';

const t = (s: string) => new Date(`2027-${s}Z`);
const call = { reviewTermination: t('05-15T00:00:00'), closed: false };

describe('a member’s progress', () => {
  const work = [{ saved: true }, { saved: false }, { saved: false }];

  it('counts what is assigned, saved and not started', () => {
    expect(memberProgress(work, call, t('05-01T00:00:00'))).toEqual({
      assigned: 3,
      saved: 1,
      notStarted: 2,
      overdue: 0,
    });
  });

  it('makes what is not started overdue from the instant review closes', () => {
    expect(memberProgress(work, call, t('05-14T23:59:59.999')).overdue).toBe(0);
    expect(memberProgress(work, call, t('05-15T00:00:00')).overdue).toBe(2);
  });

  it('has nothing overdue once the call is closed', () => {
    expect(memberProgress(work, { ...call, closed: true }, t('06-01T00:00:00')).overdue).toBe(0);
  });

  it('gives the same counts from the numbers alone as from the list', () => {
    for (const now of [t('05-01T00:00:00'), t('05-15T00:00:00')])
      for (const closed of [false, true])
        expect(memberProgressOfCounts({ assigned: 3, saved: 1 }, { ...call, closed }, now)).toEqual(
          memberProgress(work, { ...call, closed }, now),
        );
  });

  it('is 100 % with nothing assigned, and rounds', () => {
    expect(progressPercent({ assigned: 0, saved: 0 })).toBe(100);
    expect(progressPercent({ assigned: 3, saved: 1 })).toBe(33);
    expect(progressPercent({ assigned: 3, saved: 2 })).toBe(67);
  });
});

describe('the spread of scores', () => {
  it('is empty without a score', () => {
    expect(scoreSpread([])).toEqual({ min: null, max: null, sd: null });
    expect(scoreSpread([null, null])).toEqual({ min: null, max: null, sd: null });
  });

  it('is the population standard deviation, ignoring reviews without a score', () => {
    const spread = scoreSpread([2, null, 4, 4, 4, 5, 5, 7, 9]);
    expect(spread.min).toBe(2);
    expect(spread.max).toBe(9);
    expect(spread.sd).toBeCloseTo(2, 10);
  });

  it('is 0 for one score', () => {
    expect(scoreSpread([3.5])).toEqual({ min: 3.5, max: 3.5, sd: 0 });
  });

  it('marks spreads of twice the call’s median, leaving out proposals that agree', () => {
    expect(wideSpreadThreshold([null, 0, 0])).toBeNull();
    expect(wideSpreadThreshold([1, 0, 3, null, 2])).toBe(4);
    expect(wideSpreadThreshold([1, 2, 3, 4])).toBe(5);
  });
});
