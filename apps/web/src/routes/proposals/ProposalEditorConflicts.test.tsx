import 'fake-indexeddb/auto';
import type { LockState } from '@merit/contract';
import { editingMessages, LOCK_POLL_MS, messages, proposalMessages } from '@merit/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { atLocalTime } from '../../features/drafts/draft-time';
import {
  clearAllDrafts,
  draftKey,
  draftsUnder,
  getDraft,
  putDraft,
} from '../../features/drafts/local-drafts';
import {
  ADA_HOLDS_IT,
  count,
  fakeAnswers,
  GRACE_HOLDS_IT,
  openEditor,
  PATH,
  saves,
  stubEditor,
  tab,
} from '../../features/proposals/editor/editor.fixtures';
import { fakePollTimers } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { LOAD_TIMEOUT } from '../../test/timeouts';
import { preloadFirstRoute } from '../routes';

/*
 * The proposal editor when work could be lost (issue 25): answers someone else saved
 * meanwhile, a lock that is not this tab's or cannot be renewed, and the unsaved answers
 * this browser keeps (IndexedDB, faked here).
 */

const GRACE_SAVED_AT = '2026-03-03T13:45:00.000Z';
const title = () => screen.getByRole('textbox', { name: /Project title/ });
const conflictDialog = () => screen.findByRole('dialog', { name: editingMessages.conflictTitle });
/** The choice made, the dialog closes (and the page behind it can be used again). */
const closed = () => waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
/** Where Ada's (user 7) unsaved answers of an entry of proposal 30 are kept. */
const keptUnder = (formId: number, entry: string) =>
  draftKey(7, { kind: 'proposal', proposalId: 30, formId, entry });

beforeEach(() => clearAllDrafts());

/** The proposal with its title saved (version 1), which Ada changes and Grace saves over. */
async function typedOverGrace() {
  const user = userEvent.setup();
  const saved = fakeAnswers({ '1': { title: 'Axions' } });
  const fetchStub = stubEditor({}, {}, saved);
  await openEditor();
  await waitFor(() => expect(title()).toBeEnabled());
  await user.type(title(), ' survey');
  // Grace saved the title meanwhile (while Ada's laptop slept, say).
  saved.saveAs('Grace Hopper', 1, 0, { title: 'Comet dust' });
  await user.click(screen.getByRole('button', { name: 'Save' }));
  return { user, saved, fetchStub, dialog: await conflictDialog() };
}

// The page's code is loaded before the tests, as the app loads it when it starts on this
// address: the first test's waits are for the editor, not for its code's first evaluation.
beforeAll(() => preloadFirstRoute(PATH, true), LOAD_TIMEOUT);

describe('a save someone else’s save came before', () => {
  it('names the form, who saved it and when, and shows what differs', async () => {
    const { dialog, fetchStub } = await typedOverGrace();
    expect(dialog).toHaveTextContent(
      editingMessages.changedBy('Project Details', 'Grace Hopper', atLocalTime(GRACE_SAVED_AT)),
    );
    const row = within(dialog).getByRole('row', { name: /Project Details: Project title/ });
    expect(row).toHaveTextContent('Axions survey');
    expect(row).toHaveTextContent('Comet dust');
    // The refused save named the version it started from.
    expect(saves(fetchStub)).toMatchObject([{ version: 1, data: { title: 'Axions survey' } }]);
    expect(screen.queryByText('Saved successfully.')).not.toBeInTheDocument();
  });

  it('Keep mine saves the answers over theirs, from their version', async () => {
    const { user, dialog, fetchStub, saved } = await typedOverGrace();
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));

    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(saves(fetchStub)[1]).toMatchObject({
      entryId: saved.entry(1, 0).entryId,
      version: 2,
      data: { title: 'Axions survey' },
    });
    expect(saved.entry(1, 0)).toMatchObject({ version: 3, data: { title: 'Axions survey' } });
    await closed();
    expect(title()).toHaveValue('Axions survey');
    expect(tab('Project Details')).toHaveAccessibleName('Project Details');
  });

  it('Take theirs puts the saved answers in the form, and saves nothing', async () => {
    const { user, dialog, fetchStub } = await typedOverGrace();
    await user.click(within(dialog).getByRole('button', { name: 'Take theirs' }));

    await closed();
    expect(title()).toHaveValue('Comet dust');
    expect(tab('Project Details')).toHaveAccessibleName('Project Details');
    expect(saves(fetchStub)).toHaveLength(1);
  });

  it('Copy mine puts the answers on the clipboard, then takes theirs', async () => {
    const { user, dialog } = await typedOverGrace();
    await user.click(within(dialog).getByRole('button', { name: 'Copy mine' }));

    expect(await screen.findByText(editingMessages.copied)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      'Project Details: Project title\nAxions survey',
    );
    await closed();
    expect(title()).toHaveValue('Comet dust');
  });
});

describe('the lock', () => {
  it('coming back loads what was saved meanwhile: unchanged forms take it, changed ones ask', async () => {
    fakePollTimers();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let holder: LockState = ADA_HOLDS_IT;
    const saved = fakeAnswers({ '1': { title: 'Axions' }, '3': [{ full_name: 'Vera Rubin' }] });
    stubEditor({}, { 'GET /lock/30/': () => ({ body: holder }) }, saved);
    await openEditor();
    await waitFor(() => expect(title()).toBeEnabled());
    await user.type(title(), ' survey');
    // Ada moves on, as a person would. Left in the title, her typing would be "changed" by
    // user-event when the dialog below takes the focus: inside React's own commit, outside
    // act, where that change event's act makes React fail ("Should not already be working").
    await user.tab();

    // Grace takes the lock (Ada's lease ran out), saves both forms, and leaves.
    holder = GRACE_HOLDS_IT;
    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS));
    await waitFor(() => expect(title()).toBeDisabled());
    saved.saveAs('Grace Hopper', 1, 0, { title: 'Comet dust' });
    saved.saveAs('Grace Hopper', 3, 1, { full_name: 'Fritz Zwicky' });
    holder = ADA_HOLDS_IT;
    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS));

    const dialog = await conflictDialog();
    expect(dialog).toHaveTextContent(
      editingMessages.changedBy('Project Details', 'Grace Hopper', atLocalTime(GRACE_SAVED_AT)),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Take theirs' }));
    await closed();
    expect(title()).toHaveValue('Comet dust');
    await user.click(tab('Team Members'));
    expect(
      screen.getAllByRole('textbox', { name: /Full name/ }).map((f) => f.getAttribute('value')),
    ).toEqual(['Vera Rubin', 'Fritz Zwicky']);
  });

  it('held by the same person in another tab: read-only, with the server’s message', async () => {
    const message = 'You have this proposal open in another tab or window. Edit it there.';
    stubEditor(
      {},
      {
        'GET /lock/30/': {
          body: { holderId: 7, holder: 'Ada Lovelace', mine: false, reason: 'otherTab', message },
        },
      },
    );
    await openEditor(PATH, { editable: false });
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(title()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    // It is not someone else's: no badge.
    expect(screen.queryByText(/^Locked by/)).not.toBeInTheDocument();
  });

  it('that cannot be renewed stops editing, says so, and edits again once a poll succeeds', async () => {
    fakePollTimers();
    let reachable = true;
    stubEditor(
      {},
      {
        'GET /lock/30/': () =>
          reachable
            ? { body: ADA_HOLDS_IT }
            : { status: 503, body: { detail: messages.serviceUnavailable, code: 'unavailable' } },
      },
    );
    await openEditor();
    await waitFor(() => expect(title()).toBeEnabled());

    reachable = false;
    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS));
    expect(await screen.findByText(editingMessages.unreachable)).toBeInTheDocument();
    expect(title()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save All' })).not.toBeInTheDocument();

    reachable = true;
    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS));
    await waitFor(() => expect(title()).toBeEnabled());
    expect(screen.queryByText(editingMessages.unreachable)).not.toBeInTheDocument();
  });

  it('refused to a save turns the editor read-only with the server’s message', async () => {
    const user = userEvent.setup();
    let holder: LockState = ADA_HOLDS_IT;
    const refusal = proposalMessages.locked('Grace Hopper');
    stubEditor(
      {},
      {
        'GET /lock/30/': () => ({ body: holder }),
        'POST /proposal_responses/': () => {
          holder = GRACE_HOLDS_IT;
          return { status: 409, body: { detail: refusal, code: 'locked' } };
        },
      },
    );
    await openEditor();
    await waitFor(() => expect(title()).toBeEnabled());
    await user.type(title(), 'Axions');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(refusal)).toBeInTheDocument();
    await waitFor(() => expect(title()).toBeDisabled());
    // What was typed stays, unsaved.
    expect(title()).toHaveValue('Axions');
    expect(tab('Project Details')).toHaveAccessibleName('Project Details Unsaved changes');
  });
});

describe('unsaved answers kept on this computer', () => {
  it('are kept as the person types, and offered back when the editor opens again', async () => {
    const user = userEvent.setup();
    const saved = fakeAnswers({ '1': { title: 'Axions' } });
    stubEditor({}, {}, saved);
    const first = await openEditor();
    await waitFor(() => expect(title()).toBeEnabled());
    await user.type(title(), ' survey');
    const key = keptUnder(1, saved.entry(1, 0).entryId);
    await waitFor(async () =>
      expect(await getDraft(key)).toMatchObject({
        data: { title: 'Axions survey' },
        baseVersion: 1,
      }),
    );
    // A reload, a crash, a closed tab.
    first.unmount();

    await openEditor(PATH, { editable: false });
    const offer = await screen.findByText(
      /^You have unsaved answers from \d\d:\d\d \S+ on this computer\.$/,
    );
    // Nothing can be typed over them until the person chooses.
    expect(title()).toHaveValue('Axions');
    expect(title()).toBeDisabled();
    await user.click(
      within(offer.closest('[role="status"]')!).getByRole('button', { name: 'Restore' }),
    );

    await waitFor(() => expect(title()).toBeEnabled());
    expect(title()).toHaveValue('Axions survey');
    expect(tab('Project Details')).toHaveAccessibleName('Project Details Unsaved changes');

    // Saved: nothing is kept any more.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    await waitFor(async () => expect(await getDraft(key)).toBeUndefined());
  });

  it('are forgotten on Discard', async () => {
    const user = userEvent.setup();
    const saved = fakeAnswers({ '1': { title: 'Axions' } });
    stubEditor({}, {}, saved);
    const key = keptUnder(1, saved.entry(1, 0).entryId);
    await putDraft(key, { data: { title: 'Old idea' }, baseVersion: 1, typedAt: Date.now() });

    await openEditor(PATH, { editable: false });
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(title()).toBeEnabled());
    expect(title()).toHaveValue('Axions');
    await waitFor(async () => expect(await getDraft(key)).toBeUndefined());
  });

  it('that started from a version someone has since changed come back as a conflict', async () => {
    const user = userEvent.setup();
    const saved = fakeAnswers({ '1': { title: 'Axions' } });
    const { entryId } = saved.entry(1, 0);
    saved.saveAs('Grace Hopper', 1, 0, { title: 'Comet dust' });
    stubEditor({}, {}, saved);
    await putDraft(keptUnder(1, entryId), {
      data: { title: 'Axions survey' },
      baseVersion: 1,
      typedAt: Date.now(),
    });

    await openEditor(PATH, { editable: false });
    await user.click(await screen.findByRole('button', { name: 'Restore' }));
    const dialog = await conflictDialog();
    expect(dialog).toHaveTextContent(
      editingMessages.changedBy('Project Details', 'Grace Hopper', atLocalTime(GRACE_SAVED_AT)),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(saved.entry(1, 0)).toMatchObject({ version: 3, data: { title: 'Axions survey' } });
    await closed();
  });

  it('of new entries come back as new entries, and are saved as new ones', async () => {
    const user = userEvent.setup();
    const saved = fakeAnswers({ '3': [{ full_name: 'Vera Rubin' }] });
    const fetchStub = stubEditor({}, {}, saved);
    await putDraft(keptUnder(3, 'new-5ca1ab1e'), {
      data: { full_name: 'Henrietta Leavitt' },
      baseVersion: null,
      typedAt: Date.now(),
    });

    await openEditor(`${PATH}?tab=3`, { editable: false });
    await user.click(await screen.findByRole('button', { name: 'Restore' }));
    const names = () => screen.getAllByRole('textbox', { name: /Full name/ });
    await waitFor(() =>
      expect(names().map((field) => field.getAttribute('value'))).toEqual([
        'Vera Rubin',
        'Henrietta Leavitt',
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(saves(fetchStub)).toMatchObject([
      { formId: 3, entryId: null, data: { full_name: 'Henrietta Leavitt' } },
    ]);
    // Saved under its id now: nothing is left under its new-entry name.
    await waitFor(async () => expect(await draftsUnder('7/')).toEqual([]));
  });

  it('outlive a session that ended: the login page shows, and the answers stay', async () => {
    fakePollTimers();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let sessionEnded = false;
    const saved = fakeAnswers({ '1': { title: 'Axions' } });
    const fetchStub = stubEditor(
      {},
      {
        'GET /lock/30/': () =>
          sessionEnded
            ? {
                status: 401,
                body: { detail: messages.notAuthenticated, code: 'not_authenticated' },
              }
            : { body: ADA_HOLDS_IT },
      },
      saved,
    );
    const view = renderApp(PATH, { token: 'k' });
    await screen.findByRole('heading', { name: 'Dark matter survey' });
    await waitFor(() => expect(title()).toBeEnabled());
    await user.type(title(), ' survey');

    // The session is revoked elsewhere; the lock's next poll is the first to hear of it.
    sessionEnded = true;
    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS));
    await waitFor(() => expect(view.location()).toMatch(/^\/auth\/login\?next=/));
    expect(view.location()).toBe(`/auth/login?next=${encodeURIComponent(PATH)}`);
    expect(count(fetchStub, 'GET /lock/30/')).toBeGreaterThanOrEqual(2);
    await waitFor(async () =>
      expect(await getDraft(keptUnder(1, saved.entry(1, 0).entryId))).toMatchObject({
        data: { title: 'Axions survey' },
      }),
    );
  });
});
