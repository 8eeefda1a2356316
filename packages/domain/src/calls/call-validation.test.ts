import { describe, expect, it } from 'vitest';
import type { FormType } from '../forms/form-types.js';
import {
  callDetailsErrors,
  callMessages,
  formsPageComplete,
  proposalTypeErrors,
} from './call-validation.js';

// Form ids 10-15 are of types 0-5.
const formTypes = new Map<number, FormType>([
  [10, 0],
  [11, 1],
  [12, 2],
  [13, 3],
  [14, 4],
  [15, 5],
]);
const type = (change = {}) => ({
  typeName: 'Standard',
  proposalForms: [10, 11, 14, 15],
  reviewForms: [12, 13],
  ...change,
});

describe('proposalTypeErrors', () => {
  it('accepts every proposal-side type as proposal forms and types 2 and 3 as review forms', () => {
    expect(proposalTypeErrors([type()], formTypes)).toEqual({});
  });
  it.each([
    ['no types', [], { proposalTypes: [callMessages.noTypes] }],
    [
      'no name',
      [type({ typeName: ' ' })],
      { 'proposalTypes.0.typeName': ['This field is required.'] },
    ],
    [
      'a 51-character name',
      [type({ typeName: 'x'.repeat(51) })],
      { 'proposalTypes.0.typeName': ['Ensure this field has no more than 50 characters.'] },
    ],
    [
      'the same name twice',
      [type(), type({ typeName: 'standard' })],
      { 'proposalTypes.1.typeName': [callMessages.duplicateTypeName] },
    ],
    [
      'no proposal form',
      [type({ proposalForms: [] })],
      { 'proposalTypes.0.proposalForms': [callMessages.noProposalForm] },
    ],
    [
      'no review form',
      [type({ reviewForms: [] })],
      { 'proposalTypes.0.reviewForms': [callMessages.noReviewForm] },
    ],
    [
      'a review form as a proposal form',
      [type({ proposalForms: [12] })],
      { 'proposalTypes.0.proposalForms': [callMessages.notProposalForm] },
    ],
    [
      'a proposal form as a review form',
      [type({ reviewForms: [15] })],
      { 'proposalTypes.0.reviewForms': [callMessages.notReviewForm] },
    ],
    [
      'a form twice',
      [type({ reviewForms: [12, 12] })],
      { 'proposalTypes.0.reviewForms': [callMessages.duplicateForm] },
    ],
    [
      'an unknown form',
      [type({ reviewForms: [99] })],
      { 'proposalTypes.0.reviewForms': [callMessages.unknownForm] },
    ],
  ])('refuses %s', (_name, types, expected) => {
    expect(proposalTypeErrors(types, formTypes)).toEqual(expected);
  });
});

describe('formsPageComplete (the wizard Next button)', () => {
  it.each([
    ['no types', [], false],
    ['one complete type', [type()], true],
    ['a type without review forms', [type(), type({ reviewForms: [] })], false],
    ['a type without proposal forms', [type({ proposalForms: [] })], false],
  ])('%s -> %s', (_name, types, expected) => {
    expect(formsPageComplete(types)).toBe(expected);
  });
});

describe('callDetailsErrors', () => {
  const d = new Date('2026-03-01T00:00:00Z');
  const dates = { commencement: d, termination: d, reviewCommencement: d, reviewTermination: d };
  it('requires the committee and the name', () => {
    expect(callDetailsErrors({ ...dates, name: '', committee: null })).toEqual({
      committee: ['This field is required.'],
      name: ['This field is required.'],
    });
  });
  it('passes a complete page', () => {
    expect(callDetailsErrors({ ...dates, name: 'Call', committee: 3 })).toEqual({});
  });
});
