import { describe, expect, it } from 'vitest';
import {
  awardProblems,
  capacityProblems,
  decisionMessages,
  defaultAwards,
  outcomeLabel,
  type DecisionInput,
} from './outcomes.js';

const requested = { 'Telescope A': { nights: 10, hours: 40 }, 'Lab B': {} };
const decision = (more: Partial<DecisionInput>): DecisionInput => ({
  outcome: 'approved',
  awards: {},
  awardNotes: {},
  ...more,
});

describe('defaultAwards', () => {
  it('awards what was asked for when approved, leaving out a facility with no numbers', () => {
    expect(defaultAwards('approved', requested)).toEqual({
      'Telescope A': { nights: 10, hours: 40 },
    });
    expect(defaultAwards('partly_approved', requested)).toEqual({
      'Telescope A': { nights: 10, hours: 40 },
    });
  });

  it('awards nothing otherwise', () => {
    expect(defaultAwards('waitlisted', requested)).toEqual({});
    expect(defaultAwards('declined', requested)).toEqual({});
    expect(defaultAwards(null, requested)).toEqual({});
  });

  it('copies the amounts, so changing the award leaves the request alone', () => {
    const awards = defaultAwards('approved', requested);
    awards['Telescope A']!.nights = 1;
    expect(requested['Telescope A'].nights).toBe(10);
  });
});

describe('awardProblems', () => {
  it('accepts the request, less, and zero', () => {
    expect(
      awardProblems(decision({ awards: { 'Telescope A': { nights: 10 } } }), requested),
    ).toEqual([]);
    expect(
      awardProblems(decision({ awards: { 'Telescope A': { nights: 0, hours: 12.5 } } }), requested),
    ).toEqual([]);
  });

  it('refuses a negative award, naming where it is', () => {
    expect(
      awardProblems(decision({ awards: { 'Telescope A': { nights: -1 } } }), requested),
    ).toEqual([{ path: 'awards.Telescope A.nights', message: decisionMessages.negative }]);
  });

  it('asks for a note on more than was asked for, and takes it with one', () => {
    const more = decision({ awards: { 'Telescope A': { nights: 12 } } });
    expect(awardProblems(more, requested)).toEqual([
      { path: 'awards.Telescope A.nights', message: decisionMessages.aboveRequest(10) },
    ]);
    expect(
      awardProblems(
        { ...more, awardNotes: { 'Telescope A': 'Two nights for calibration' } },
        requested,
      ),
    ).toEqual([]);
    // A note of spaces is no note.
    expect(awardProblems({ ...more, awardNotes: { 'Telescope A': '  ' } }, requested)).toHaveLength(
      1,
    );
  });

  it('refuses an award of a facility or field the proposal asks nothing of', () => {
    expect(
      awardProblems(
        decision({ awards: { Elsewhere: { nights: 1 }, 'Lab B': { hours: 1 } } }),
        requested,
      ),
    ).toEqual([
      { path: 'awards.Elsewhere.nights', message: decisionMessages.notRequested },
      { path: 'awards.Lab B.hours', message: decisionMessages.fieldNotRequested },
    ]);
  });

  it('refuses awards for an outcome that awards nothing', () => {
    for (const outcome of ['waitlisted', 'declined', null] as const) {
      expect(
        awardProblems(decision({ outcome, awards: { 'Telescope A': { nights: 1 } } }), requested),
      ).toEqual([{ path: 'awards', message: decisionMessages.awardsNeedApproval }]);
      expect(
        awardProblems(decision({ outcome, awards: { 'Telescope A': {} } }), requested),
      ).toEqual([]);
    }
  });

  it('refuses a note on a facility that is awarded nothing', () => {
    expect(awardProblems(decision({ awardNotes: { 'Telescope A': 'why' } }), requested)).toEqual([
      { path: 'awardNotes.Telescope A', message: decisionMessages.noteWithoutAward },
    ]);
  });
});

describe('capacityProblems', () => {
  it('accepts zero and more, and refuses a negative or absurd capacity', () => {
    expect(capacityProblems({ T: { nights: 0, hours: 300 } })).toEqual([]);
    expect(capacityProblems({ T: { nights: -5, hours: 1e13 } })).toEqual([
      { path: 'capacity.T.nights', message: decisionMessages.capacityNegative },
      { path: 'capacity.T.hours', message: decisionMessages.tooLarge },
    ]);
  });
});

describe('outcomeLabel', () => {
  it('uses the call’s own word for an outcome, and the label when it has none', () => {
    expect(outcomeLabel('approved')).toBe('Approved');
    expect(outcomeLabel('approved', { approved: 'Accepted' })).toBe('Accepted');
    expect(outcomeLabel('declined', { declined: '  ' })).toBe('Declined');
  });
});
