import { callProposalExport } from '@merit/contract';
import { describe, expect, it } from 'vitest';
import { makeCallProposal } from '../proposals.fixtures';
import { exportPath, isCallProposalExport } from './export.api';

const reviewer = { id: 21, name: 'Rebecca Reviewer' };
const chairRow = makeCallProposal({
  id: 30,
  state: 'Reviewed',
  stateVal: 2,
  reviewers: [reviewer],
  isReviewed: true,
  reviewScores: [
    { name: 'significance', value: 3 },
    { name: 'result', value: null },
  ],
  score: null,
  resourceValues: { ATCA: { hours: 12.5 }, '': { nights: 3 } },
  allReviewScores: [{ reviewer, scores: [{ name: 'significance', value: 3 }], score: 3 }],
  allReviewComments: [{ reviewer, comments: [{ name: 'Strengths', value: 'Clear' }] }],
});
const body = {
  items: [chairRow, makeCallProposal({ id: 31, resourceValues: {} })],
  total: 2,
  resourceTotals: { ATCA: { hours: 12.5 } },
  facilities: ['', 'ATCA'],
};

/** A copy of the body with one change made by `change`. */
const changed = (change: (copy: typeof body & Record<string, unknown>) => void) => {
  const copy = structuredClone(body) as typeof body & Record<string, unknown>;
  change(copy);
  return copy;
};

describe('the export’s body check, in place of the contract’s zod schema', () => {
  it('accepts what the contract accepts, each review’s scores and comments there or not', () => {
    expect(callProposalExport.safeParse(body).success).toBe(true);
    expect(isCallProposalExport(body)).toBe(true);
    const lean = changed((copy) => {
      delete copy.items[0]!.allReviewScores;
      delete copy.items[0]!.allReviewComments;
    });
    expect(isCallProposalExport(lean)).toBe(true);
    expect(isCallProposalExport({ ...body, items: [], total: 0, resourceTotals: {} })).toBe(true);
  });

  it('accepts the lean rows of columns=lean: the proposal’s own columns, isReviewed and comments', () => {
    const leanRow = makeCallProposal({
      id: 32,
      isReviewed: true,
      allReviewComments: [{ reviewer, comments: [{ name: 'Strengths', value: 'Clear' }] }],
    });
    // The chair's own proposal: not even isReviewed.
    const own = makeCallProposal({ id: 33 });
    expect(Object.keys(own)).not.toContain('isReviewed');
    const lean = { items: [leanRow, own], total: 2, resourceTotals: {}, facilities: [] };
    expect(callProposalExport.safeParse(lean).success).toBe(true);
    expect(isCallProposalExport(lean)).toBe(true);
  });

  it('accepts the decisions and the ranking of include=decisions,ranking', () => {
    const decided = {
      ...body,
      items: [
        { ...chairRow, decision: { outcome: 'approved', awards: { ATCA: { hours: 10 } } } },
        // An outcome not set yet: absent.
        { ...body.items[1]!, decision: { awards: {} } },
      ],
      outcomeLabels: { approved: 'Granted' },
      ranking: {
        rows: [
          {
            rank: 1,
            proposalId: 30,
            score: null,
            requested: { ATCA: { hours: 12.5 } },
            running: { ATCA: { hours: 12.5 } },
            aboveLine: { ATCA: true },
            above: false,
          },
        ],
        lines: [
          {
            facility: 'ATCA',
            field: 'hours',
            capacity: 10,
            requested: 12.5,
            awarded: 10,
            firstBelow: 1,
            oversubscription: 1.25,
            awardedShare: 1,
            overAwarded: false,
          },
        ],
      },
    };
    expect(callProposalExport.safeParse(decided).success).toBe(true);
    expect(isCallProposalExport(decided)).toBe(true);
    for (const wrong of [
      { ...decided, items: [{ ...chairRow, decision: { outcome: 'maybe', awards: {} } }] },
      { ...decided, items: [{ ...chairRow, decision: { outcome: 'approved' } }] },
      { ...decided, outcomeLabels: { approved: 3 } },
      { ...decided, ranking: { ...decided.ranking, rows: [{ rank: '1' }] } },
      { ...decided, ranking: { rows: [] } },
    ]) {
      expect(callProposalExport.safeParse(wrong).success).toBe(false);
      expect(isCallProposalExport(wrong)).toBe(false);
    }
  });

  it.each([
    ['no items', (c: Record<string, unknown>) => delete c.items],
    [
      'a row without a name',
      (c: typeof body) => delete (c.items[1] as Partial<typeof chairRow>).proposalName,
    ],
    ['an id as text', (c: typeof body) => Object.assign(c.items[0]!, { id: '30' })],
    ['a score as text', (c: typeof body) => Object.assign(c.items[0]!, { score: '3' })],
    [
      'a field score as text',
      (c: typeof body) => (c.items[0]!.reviewScores![0]!.value = '3' as never),
    ],
    [
      'a reviewer without a name',
      (c: typeof body) => (c.items[0]!.reviewers = [{ id: 2 } as never]),
    ],
    [
      'an amount as text',
      (c: typeof body) => (c.items[0]!.resourceValues = { ATCA: { hours: '1' as never } }),
    ],
    [
      'a review’s score as text',
      (c: typeof body) => (c.items[0]!.allReviewScores![0]!.score = '3' as never),
    ],
    [
      'an answer as a number',
      (c: typeof body) => (c.items[0]!.allReviewComments![0]!.comments[0]!.value = 4 as never),
    ],
    ['comments not a list', (c: typeof body) => (c.items[0]!.allReviewComments = {} as never)],
    ['a facility as a number', (c: typeof body) => (c.facilities = [1 as never])],
    ['no totals', (c: Record<string, unknown>) => delete c.resourceTotals],
  ])('refuses a body with %s, as the contract does', (_what, change) => {
    const wrong = changed(change as (copy: typeof body) => void);
    expect(callProposalExport.safeParse(wrong).success).toBe(false);
    expect(isCallProposalExport(wrong)).toBe(false);
  });
});

describe('the export’s address', () => {
  it.each([
    [{}, '/calls/12/proposals/export/'],
    [{ include: [] }, '/calls/12/proposals/export/'],
    [{ include: ['allReviewComments'] }, '/calls/12/proposals/export/?include=allReviewComments'],
    [{ type: 40 }, '/calls/12/proposals/export/?type=40'],
    [{ columns: 'chair' }, '/calls/12/proposals/export/'],
    [
      { include: ['allReviewComments'], columns: 'lean', type: 40 },
      '/calls/12/proposals/export/?include=allReviewComments&columns=lean&type=40',
    ],
    [
      { include: ['allReviewScores', 'allReviewComments'], type: 41 },
      '/calls/12/proposals/export/?include=allReviewScores,allReviewComments&type=41',
    ],
  ] as const)('asks %j at %s', (request, path) => {
    expect(exportPath(12, request)).toBe(path);
  });
});
