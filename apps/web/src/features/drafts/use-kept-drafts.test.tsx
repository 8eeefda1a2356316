import 'fake-indexeddb/auto';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { endSession, setToken } from '../../api/session';
import { clearAllDrafts, getDraft, putDraft } from './local-drafts';
import { useKeptDrafts, type UnsavedWork } from './use-kept-drafts';

afterEach(() => clearAllDrafts());

const KEY = '7/review/30/5';
type Work = ReadonlyMap<string, UnsavedWork | null> | null;
const work = (unsaved: UnsavedWork | null): Work => new Map([[KEY, unsaved]]);

/** The hook over `initial`; `rerender` gives it the next state of the editor. */
function keep(initial: Work) {
  return renderHook(({ state }: { state: Work }) => useKeptDrafts(state), {
    initialProps: { state: initial },
  });
}

/*
 * Whether a write that may be on its way has landed: IndexedDB runs writes to one store
 * in order, so once a marker written after it is there, it is too (or it never came).
 */
async function settled() {
  await putDraft('marker/', { data: null, baseVersion: null, typedAt: 0 });
  await waitFor(async () => expect(await getDraft('marker/')).toBeDefined());
}

describe('useKeptDrafts', () => {
  it('keeps what is typed, with its base version, and forgets it once nothing is unsaved', async () => {
    const view = keep(work(null));
    const typed = { answer: 'Bold.' };
    view.rerender({ state: work({ data: typed, baseVersion: 3 }) });
    await waitFor(async () =>
      expect(await getDraft(KEY)).toEqual({
        data: typed,
        baseVersion: 3,
        typedAt: expect.any(Number),
      }),
    );
    const { typedAt } = (await getDraft(KEY))!;

    // Another form saved: the base version moves, the time it was typed does not.
    view.rerender({ state: work({ data: typed, baseVersion: 4 }) });
    await waitFor(async () => expect((await getDraft(KEY))?.baseVersion).toBe(4));
    expect((await getDraft(KEY))?.typedAt).toBe(typedAt);

    view.rerender({ state: work(null) });
    await waitFor(async () => expect(await getDraft(KEY)).toBeUndefined());
  });

  it('forgets work whose key is gone: a new entry saved under its id, or deleted', async () => {
    const typed = { data: { full_name: 'Henrietta Leavitt' }, baseVersion: null };
    const view = keep(new Map([['7/proposal/30/3/new-1', typed]]));
    await waitFor(async () => expect(await getDraft('7/proposal/30/3/new-1')).toBeDefined());

    view.rerender({ state: new Map([['7/proposal/30/3/e1', null]]) });
    await waitFor(async () => expect(await getDraft('7/proposal/30/3/new-1')).toBeUndefined());
  });

  it('leaves a kept draft alone when the editor opens with nothing unsaved', async () => {
    const kept = { data: { answer: 'Before.' }, baseVersion: 2, typedAt: 1 };
    await putDraft(KEY, kept);
    keep(work(null));
    await settled();
    expect(await getDraft(KEY)).toEqual(kept);
  });

  it('writes the last keystrokes at once when the editor goes (a session that ended)', async () => {
    const view = keep(work(null));
    view.rerender({ state: work({ data: { answer: 'Last.' }, baseVersion: 3 }) });
    view.unmount();
    await settled();
    expect((await getDraft(KEY))?.data).toEqual({ answer: 'Last.' });
  });

  it('does not write them after a logout, which forgets them', async () => {
    const view = keep(work(null));
    view.rerender({ state: work({ data: { answer: 'Last.' }, baseVersion: 3 }) });
    setToken('k');
    endSession('logout');
    view.unmount();
    await settled();
    expect(await getDraft(KEY)).toBeUndefined();
  });

  it('keeps nothing while told to wait (an offer or a choice is open)', async () => {
    const view = keep(work(null));
    view.rerender({ state: work({ data: { answer: 'Typed.' }, baseVersion: 3 }) });
    view.rerender({ state: null });
    view.unmount();
    await settled();
    expect(await getDraft(KEY)).toBeUndefined();
  });
});
