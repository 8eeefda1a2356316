import { describe, expect, it } from 'vitest';
import { activityParams, readActivityFilters } from './activity-query';

describe('readActivityFilters', () => {
  it.each([
    ['nothing', '', {}],
    [
      'every filter',
      'user=3&action=proposal.submit&proposal=30&from=2026-03-01&to=2026-03-31',
      { user: 3, action: 'proposal.submit', proposal: 30, from: '2026-03-01', to: '2026-03-31' },
    ],
    ['a person that is no id', 'user=ada', {}],
    ['a proposal of zero', 'proposal=0', {}],
    ['a day that does not exist', 'from=2026-02-31', {}],
    ['a day Merit cannot store', 'to=1899-12-31', {}],
    ['a date with a time', 'from=2026-03-01T10:00', {}],
    ['an empty action', 'action=', {}],
  ])('%s', (_name, search, expected) => {
    expect(readActivityFilters(new URLSearchParams(search))).toEqual(expected);
  });
});

describe('activityParams', () => {
  it('sends each day whole in UTC, then the page', () => {
    expect(
      activityParams(
        { user: 3, from: '2026-03-01', to: '2026-03-31' },
        { page: 2, pageSize: 25 },
      ).toString(),
    ).toBe(
      'user=3&from=2026-03-01T00%3A00%3A00.000Z&to=2026-03-31T23%3A59%3A59.999Z&page=2&pageSize=25',
    );
  });

  it('asks for the whole filter as CSV, without a page', () => {
    expect(activityParams({ action: 'login.succeeded' }, { format: 'csv' }).toString()).toBe(
      'action=login.succeeded&format=csv',
    );
  });
});
