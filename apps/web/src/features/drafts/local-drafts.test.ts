import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearAllDrafts,
  clearUserDrafts,
  deleteDraft,
  draftKey,
  draftsUnder,
  getDraft,
  keepOnlyDraftsOf,
  putDraft,
  scopePrefix,
} from './local-drafts';

afterEach(() => clearAllDrafts());

const entry = (userId: number, proposalId: number, formId: number, id: string) =>
  draftKey(userId, { kind: 'proposal', proposalId, formId, entry: id });

describe('local drafts', () => {
  it('keeps a draft until it is deleted', async () => {
    const key = entry(4, 12, 3, 'a1');
    await putDraft(key, { data: { title: 'Dark matter' }, baseVersion: 2, typedAt: 1000 });
    expect(await getDraft(key)).toEqual({
      data: { title: 'Dark matter' },
      baseVersion: 2,
      typedAt: 1000,
    });
    await deleteDraft(key);
    expect(await getDraft(key)).toBeUndefined();
  });

  it('lists one proposal’s drafts of one user, not another proposal’s or user’s', async () => {
    const draft = { data: {}, baseVersion: null, typedAt: 1 };
    await putDraft(entry(4, 12, 3, 'a'), draft);
    await putDraft(entry(4, 12, 5, 'b'), draft);
    await putDraft(entry(4, 120, 3, 'c'), draft);
    await putDraft(entry(40, 12, 3, 'd'), draft);
    const keys = (await draftsUnder(scopePrefix(4, { kind: 'proposal', proposalId: 12 }))).map(
      ([key]) => key,
    );
    expect(keys.sort()).toEqual([entry(4, 12, 3, 'a'), entry(4, 12, 5, 'b')]);
  });

  it('forgets every draft of a user who logs out, and only theirs', async () => {
    const draft = { data: {}, baseVersion: 1, typedAt: 1 };
    await putDraft(entry(4, 12, 3, 'a'), draft);
    await putDraft(draftKey(4, { kind: 'decision', proposalId: 12 }), draft);
    await putDraft(entry(40, 12, 3, 'a'), draft);
    await clearUserDrafts(4);
    expect(await draftsUnder('4/')).toEqual([]);
    expect(await draftsUnder('40/')).toHaveLength(1);
  });

  it('keeps none of a user who logged out until they sign in again', async () => {
    const draft = { data: {}, baseVersion: 1, typedAt: 1 };
    await clearUserDrafts(4);
    // An editor's last write as the page closes, after the logout.
    await putDraft(entry(4, 12, 3, 'a'), draft);
    expect(await draftsUnder('4/')).toEqual([]);

    await keepOnlyDraftsOf(4);
    await putDraft(entry(4, 12, 3, 'a'), draft);
    expect(await draftsUnder('4/')).toHaveLength(1);
  });

  it('forgets every other account’s drafts when someone signs in', async () => {
    const draft = { data: {}, baseVersion: 1, typedAt: 1 };
    await putDraft(entry(4, 12, 3, 'a'), draft);
    await putDraft(draftKey(40, { kind: 'review', proposalId: 12, formId: 5 }), draft);
    await putDraft(draftKey(41, { kind: 'decision', proposalId: 12 }), draft);
    await keepOnlyDraftsOf(4);
    expect((await draftsUnder('')).map(([key]) => key)).toEqual([entry(4, 12, 3, 'a')]);
  });
});
