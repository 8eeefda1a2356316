import { callProposalExport, errorBody } from '@merit/contract';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { projectingSerializer, rawJson, RawJson } from './projecting-serializer.js';

const reviewer = { id: 21, name: 'Rebecca "R" Reviewer\n' };
/** A body as the export writes it, every optional part there, some values null. */
const body = () => ({
  items: [
    {
      id: 30,
      proposalName: 'Galaxy <survey> \u2028 ü',
      proposalTypeId: 4,
      proposalTypeName: 'Observing',
      author: 'Ada',
      authorId: 7,
      state: 'Reviewed' as const,
      stateVal: 2,
      lastModified: '2026-03-02T00:00:00.000Z',
      editable: false,
      resourceValues: { ATCA: { hours: 12.5 }, '': { nights: 3 } },
      reviewers: [reviewer],
      isReviewed: true,
      reviewScores: [
        { name: 'significance', value: 3 },
        { name: 'result', value: null },
      ],
      score: null,
      allReviewScores: [{ reviewer, scores: [{ name: 'significance', value: 3 }], score: 3.25 }],
      allReviewComments: [{ reviewer, comments: [{ name: 'Strengths', value: 'Clear' }] }],
    },
    {
      id: 31,
      proposalName: 'Own',
      proposalTypeId: 4,
      proposalTypeName: 'Observing',
      author: 'Chair',
      authorId: 8,
      state: 'Draft' as const,
      stateVal: 0,
      lastModified: '2026-03-02T00:00:00.000Z',
      editable: true,
      resourceValues: {},
    },
  ],
  total: 2,
  resourceTotals: { ATCA: { hours: 12.5 } },
  facilities: ['', 'ATCA'],
});

const fastJsonOf = (schema: z.ZodType) =>
  fastJson(
    z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'any',
    }) as Parameters<typeof fastJson>[0],
  );

describe('the export’s serializer', () => {
  const write = projectingSerializer(callProposalExport);

  it('writes what fast-json-stringify writes, and what the contract reads back', () => {
    expect(write(body())).toBe(fastJsonOf(callProposalExport)(body()));
    expect(callProposalExport.parse(JSON.parse(write(body())))).toEqual(body());
    const error = { detail: 'No.', code: 'forbidden', fields: { include: ['Bad.'] } };
    expect(projectingSerializer(errorBody)(error)).toBe(fastJsonOf(errorBody)(error));
    // What a 409 `stale` holds is any JSON the route's contract gives it.
    const stale = { detail: 'Changed.', code: 'stale', current: { data: { a: [1, null] } } };
    expect(projectingSerializer(errorBody)(stale)).toBe(fastJsonOf(errorBody)(stale));
  });

  it('writes no property the contract does not declare, at any depth', () => {
    const leaky = body() as ReturnType<typeof body> & Record<string, unknown>;
    leaky.secret = 'top';
    Object.assign(leaky.items[0]!, { email: 'ada@example.org' });
    Object.assign(leaky.items[0]!.reviewers![0]!, { email: 'rebecca@example.org' });
    Object.assign(leaky.items[0]!.allReviewScores![0]!.scores[0]!, { hidden: 'score note' });
    Object.assign(leaky.items[0]!.allReviewComments![0]!.comments[0]!, { private: 'to chair' });
    const written = write(leaky);
    for (const word of ['top', 'example.org', 'score note', 'to chair'])
      expect(written).not.toContain(word);
    expect(written).toBe(write(body()));
    // The body handed in is left as it was.
    expect(leaky.items[0]!.reviewers![0]).toHaveProperty('email');
  });

  it('refuses to write an object where the contract has a text or a number', () => {
    const wrong = body();
    Object.assign(wrong.items[0]!, { author: { name: 'Ada', email: 'ada@example.org' } });
    expect(() => write(wrong)).toThrow(/\$\.items\.author is not a string/);
    const wrongScore = body();
    Object.assign(wrongScore.items[0]!.reviewScores![0]!, { value: { secret: 1 } });
    expect(() => write(wrongScore)).toThrow(/not a number or null|not a number/);
  });

  it('writes a part made as JSON text as it is, the same bytes as its objects', () => {
    const raw = body();
    // Made as the export makes it, of exactly the contract's properties.
    const comments = [
      {
        reviewer: { id: 21, name: 'Rebecca "R" Reviewer\n' },
        comments: [{ name: 'Strengths', value: 'Clear' }],
      },
    ];
    raw.items[0]!.allReviewComments = rawJson(JSON.stringify(comments));
    expect(write(raw)).toBe(write(body()));
    // The body handed in is left as it was.
    expect(raw.items[0]!.allReviewComments).toBeInstanceOf(RawJson);
  });

  it('writes a text that looks like a placeholder as text, never as what another part holds', () => {
    const sly = body();
    sly.items[0]!.allReviewComments = rawJson('[]');
    sly.items[0]!.proposalName = '\u0000abc:0';
    Object.assign(sly.items[1]!, { author: '\u0000' });
    const written = write(sly);
    expect(JSON.parse(written).items[0]).toMatchObject({
      proposalName: '\u0000abc:0',
      allReviewComments: [],
    });
    expect(JSON.parse(written).items[1].author).toBe('\u0000');
  });

  it('refuses JSON text where the contract has a text or a number', () => {
    const wrong = body();
    Object.assign(wrong.items[0]!, { author: rawJson('{"email":"ada@example.org"}') });
    expect(() => write(wrong)).toThrow(/\$\.items\.author is not a string/);
  });
});
