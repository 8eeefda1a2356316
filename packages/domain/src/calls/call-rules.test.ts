import { describe, expect, it } from 'vitest';
import { isStorableDate } from '../dates.js';
import { isReviewed } from '../proposals/reviewed.js';
import { roleMessages, roleOverlapErrors } from '../validation/role.js';
import { validationMessages } from '../validation/fields.js';
import { callMessages, pinnedTypeErrors, type SavedProposalType } from './call-validation.js';
import { extensionErrors, extensionMessages, windowsOverlap } from './extensions.js';

const t = (iso: string) => new Date(`2026-${iso}Z`);

describe('extensionErrors', () => {
  const valid = {
    user: 3,
    commencement: t('04-01T00:00:00'),
    termination: t('04-08T00:00:00'),
    reason: 'Illness',
  };
  it('accepts a complete extension', () => {
    expect(extensionErrors(valid, [])).toEqual({});
  });
  it('asks for the user and both dates', () => {
    expect(
      extensionErrors({ user: null, commencement: null, termination: null, reason: '' }, []),
    ).toEqual({
      user: [validationMessages.required],
      commencement: [validationMessages.required],
      termination: [validationMessages.required],
    });
  });
  it('refuses an end before the start, and a long reason', () => {
    expect(
      extensionErrors({ ...valid, termination: t('03-31T00:00:00'), reason: 'x'.repeat(201) }, []),
    ).toEqual({
      termination: [roleMessages.terminationBeforeCommencement],
      reason: [validationMessages.maxLength(200)],
    });
  });
  it.each([
    ['inside another', '04-02T00:00:00', '04-03T00:00:00', true],
    ['around another', '03-01T00:00:00', '05-01T00:00:00', true],
    ['ending as another starts', '03-25T00:00:00', '04-01T00:00:00', false],
    ['starting as another ends', '04-08T00:00:00', '04-10T00:00:00', false],
    ['one millisecond into another', '03-25T00:00:00', '04-01T00:00:00.001', true],
  ])('an extension %s -> overlap %s', (_name, from, to, overlaps) => {
    const errors = extensionErrors({ ...valid, commencement: t(from), termination: t(to) }, [
      { commencement: valid.commencement, termination: valid.termination },
    ]);
    expect(errors).toEqual(overlaps ? { commencement: [extensionMessages.overlaps] } : {});
    expect(
      windowsOverlap(
        { commencement: t(from), termination: t(to) },
        { commencement: valid.commencement, termination: valid.termination },
      ),
    ).toBe(overlaps);
  });
});

describe('roleOverlapErrors', () => {
  const role = {
    committeeId: 1,
    role: 'MEMBER' as const,
    commencement: t('01-01T00:00:00'),
    termination: t('06-30T23:59:59.999'),
  };
  it.each([
    ['before another', '07-01T00:00:00', '12-31T00:00:00', false],
    ['starting the instant another ends', '06-30T23:59:59.999', '12-31T00:00:00', true],
    ['the same period again', '01-01T00:00:00', '06-30T23:59:59.999', true],
  ])('a role %s -> overlap %s', (_name, from, to, overlaps) => {
    expect(
      roleOverlapErrors({ ...role, commencement: t(from), termination: t(to) }, [role]),
    ).toEqual(overlaps ? { commencement: [roleMessages.overlaps] } : {});
  });
});

describe('pinnedTypeErrors', () => {
  const saved: SavedProposalType[] = [
    {
      typeId: 1,
      typeName: 'Small',
      proposalForms: [10, 11],
      reviewForms: [20],
      hasProposals: true,
      hasReviews: false,
    },
    {
      typeId: 2,
      typeName: 'Large',
      proposalForms: [12],
      reviewForms: [21],
      hasProposals: true,
      hasReviews: true,
    },
    {
      typeId: 3,
      typeName: 'Spare',
      proposalForms: [12],
      reviewForms: [21],
      hasProposals: false,
      hasReviews: false,
    },
  ];
  const same = saved.map(({ typeId, typeName, proposalForms, reviewForms }) => ({
    typeId,
    typeName,
    proposalForms,
    reviewForms,
  }));
  it('accepts an edit that keeps what saved work pins', () => {
    expect(pinnedTypeErrors(saved, same)).toEqual({});
  });
  it('lets types without saved work change and go', () => {
    expect(pinnedTypeErrors(saved, [same[0]!, same[1]!])).toEqual({});
    expect(
      pinnedTypeErrors(saved, [same[0]!, same[1]!, { ...same[2]!, proposalForms: [10] }]),
    ).toEqual({});
  });
  it('refuses reordered proposal forms, changed review forms, a deleted type and a foreign id', () => {
    expect(
      pinnedTypeErrors(saved, [
        { ...same[0]!, proposalForms: [11, 10], reviewForms: [22] },
        { ...same[2]!, typeId: 99 },
      ]),
    ).toEqual({
      'proposalTypes.0.proposalForms': [callMessages.proposalFormsLocked('Small')],
      'proposalTypes.1.typeId': [callMessages.typeNotInCall],
      proposalTypes: [callMessages.typeHasProposals('Large')],
    });
    expect(pinnedTypeErrors(saved, [same[0]!, { ...same[1]!, reviewForms: [] }, same[2]!])).toEqual(
      {
        'proposalTypes.1.reviewForms': [callMessages.reviewFormsLocked('Large')],
      },
    );
  });
});

describe('isReviewed', () => {
  it.each([
    ['a draft, even with reviews', 0, [5], [], false],
    ['submitted, nobody assigned, no review', 1, [], [], false],
    ['submitted, nobody assigned, one review', 1, [5], [], true],
    ['one of two assigned reviewers done', 1, [5], [5, 6], false],
    ['both assigned reviewers done', 1, [5, 6], [5, 6], true],
    ['a review by someone not assigned, the assigned one missing', 1, [7], [5], false],
    ['already marked reviewed', 2, [5], [5], true],
  ])('%s -> %s', (_name, stateVal, reviewerIds, assignedReviewerIds, expected) => {
    expect(isReviewed({ stateVal, reviewerIds, assignedReviewerIds })).toBe(expected);
  });
});

describe('isStorableDate', () => {
  it.each([
    ['0000-01-01T00:00:00Z', false],
    ['1899-12-31T23:59:59.999Z', false],
    ['1900-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59.999Z', true],
    ['9999-12-31T23:00:00-05:00', false],
    ['not a date', false],
  ])('%s -> %s', (text, expected) => {
    expect(isStorableDate(new Date(text))).toBe(expected);
  });
});
