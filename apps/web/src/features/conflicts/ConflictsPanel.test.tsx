import type { ConflictDeclarationsSave, ProposalConflicts, ProposalDetail } from '@merit/contract';
import { conflictMessages, conflictScreenMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { apiCalls, stubApi, type ApiHandler } from '../../test/render-app';
import { renderInRouter } from '../../test/render-in-router';
import { CurrentUserContext } from '../auth/session-hooks';
import { openEditor, stubEditor } from '../proposals/editor/editor.fixtures';
import { authorDraftAbilities, makeProposal } from '../proposals/proposals.fixtures';
import { conflictKeys } from './conflicts.api';
import { declared, makeProposalConflicts } from './conflicts.fixtures';
import { ConflictsPanel } from './ConflictsPanel';

/** Ada (user 7), the proposal's author. */
const ada = makeUser();

function renderPanel(proposal: ProposalDetail = makeProposal()) {
  return renderInRouter(
    <CurrentUserContext value={ada}>
      <ConflictsPanel proposal={proposal} />
    </CurrentUserContext>,
  );
}

type FetchStub = ReturnType<typeof stubApi>;
const puts = (fetchStub: FetchStub) =>
  fetchStub.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([, init]) => JSON.parse(String(init!.body)) as ConflictDeclarationsSave);

/** PUT as the server keeps it: each save raises the version; the first is stale when told. */
function declarationSaves(start: ProposalConflicts, stale?: ProposalConflicts): ApiHandler {
  let current = start;
  let first = true;
  return ({ body }) => {
    if (stale && first) {
      first = false;
      current = stale;
      return { status: 409, body: { detail: conflictMessages.stale, code: 'stale', current } };
    }
    const { declarations } = body as ConflictDeclarationsSave;
    current = {
      ...current,
      version: current.version + 1,
      conflicts: declarations.map(({ userId, type, reason }, index) =>
        declared({ id: 600 + index, userId, type, reason: reason ?? '' }),
      ),
    };
    return { body: current };
  };
}

const member = (name: string) => screen.getByRole('group', { name });
const tick = (name: string) => within(member(name)).getByRole('checkbox');

describe('the applicant’s Conflicts panel', () => {
  it('lists the committee, and saves the members ticked with their kind and reason', async () => {
    const user = userEvent.setup();
    const saved = makeProposalConflicts();
    const fetchStub = stubApi({
      'GET /proposals/30/conflicts/': { body: saved },
      'PUT /proposals/30/conflicts/': declarationSaves(saved),
    });
    renderPanel();
    expect(await screen.findByText(conflictScreenMessages.panelHelp)).toBeVisible();
    const list = screen.getByRole('list', { name: 'Committee members' });
    // The author is on the committee, and is not offered.
    expect(
      within(list)
        .getAllByRole('group')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Carla Chair', 'Grace Hopper', 'Alan Turing']);
    expect(member('Alan Turing')).toHaveTextContent('University of Manchester');

    await user.click(tick('Grace Hopper'));
    await user.selectOptions(
      within(member('Grace Hopper')).getByRole('combobox', { name: 'Kind of conflict' }),
      'Recent collaborator',
    );
    await user.type(
      within(member('Grace Hopper')).getByRole('textbox', { name: 'Reason (optional)' }),
      'Co-author in 2025',
    );
    expect(screen.getByText('Your changes to the conflicts are not saved yet.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Save Conflicts' }));

    expect(await screen.findByText(conflictScreenMessages.panelSaved)).toBeVisible();
    expect(puts(fetchStub)).toEqual([
      {
        version: 3,
        declarations: [{ userId: 9, type: 'collaborator', reason: 'Co-author in 2025' }],
      },
    ]);
    expect(
      screen.queryByText('Your changes to the conflicts are not saved yet.'),
    ).not.toBeInTheDocument();

    // Unticking one takes it out of the next save, which names the version that answered.
    await user.click(tick('Grace Hopper'));
    await user.click(screen.getByRole('button', { name: 'Save Conflicts' }));
    await waitFor(() => expect(puts(fetchStub)).toHaveLength(2));
    expect(puts(fetchStub)[1]).toEqual({ version: 4, declarations: [] });
  });

  it('keeps a conflict a chair pinned: locked, and sent with every save', async () => {
    const user = userEvent.setup();
    const saved = makeProposalConflicts({
      conflicts: [declared({ userId: 10, type: 'personal', pinned: true, reason: 'Brother' })],
    });
    const fetchStub = stubApi({
      'GET /proposals/30/conflicts/': { body: saved },
      'PUT /proposals/30/conflicts/': declarationSaves(saved),
    });
    renderPanel();
    await screen.findByText(conflictScreenMessages.panelHelp);
    expect(tick('Alan Turing')).toBeChecked();
    expect(tick('Alan Turing')).toBeDisabled();
    expect(member('Alan Turing')).toHaveTextContent(conflictMessages.pinned);

    await user.click(tick('Carla Chair'));
    await user.click(screen.getByRole('button', { name: 'Save Conflicts' }));
    await waitFor(() => expect(puts(fetchStub)).toHaveLength(1));
    expect(puts(fetchStub)[0]!.declarations).toEqual([
      { userId: 10, type: 'personal', reason: 'Brother' },
      { userId: 3, type: 'institutional', reason: '' },
    ]);
  });

  it('shows what a fellow applicant saved first, and Take theirs puts it in the panel', async () => {
    const user = userEvent.setup();
    const saved = makeProposalConflicts();
    const theirs = makeProposalConflicts({
      version: 4,
      conflicts: [declared({ userId: 10, type: 'financial' })],
    });
    const fetchStub = stubApi({
      'GET /proposals/30/conflicts/': { body: saved },
      'PUT /proposals/30/conflicts/': declarationSaves(saved, theirs),
    });
    renderPanel();
    await screen.findByText(conflictScreenMessages.panelHelp);
    await user.click(tick('Grace Hopper'));
    await user.click(screen.getByRole('button', { name: 'Save Conflicts' }));

    const dialog = await screen.findByRole('dialog', { name: conflictScreenMessages.staleTitle });
    expect(dialog).toHaveTextContent(conflictMessages.stale);
    const rows = within(dialog)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'Grace HopperSame institutionNo conflict',
      'Alan TuringNo conflictFinancial',
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Take theirs' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(tick('Alan Turing')).toBeChecked();
    expect(tick('Grace Hopper')).not.toBeChecked();
    // Nothing more was sent: theirs is what is saved.
    expect(puts(fetchStub)).toHaveLength(1);
  });

  it('saves the person’s choice over theirs with Keep mine, from the version saved now', async () => {
    const user = userEvent.setup();
    const saved = makeProposalConflicts();
    const theirs = makeProposalConflicts({
      version: 4,
      conflicts: [declared({ userId: 10, type: 'financial' })],
    });
    const fetchStub = stubApi({
      'GET /proposals/30/conflicts/': { body: saved },
      'PUT /proposals/30/conflicts/': declarationSaves(saved, theirs),
    });
    renderPanel();
    await screen.findByText(conflictScreenMessages.panelHelp);
    await user.click(tick('Grace Hopper'));
    await user.click(screen.getByRole('button', { name: 'Save Conflicts' }));
    const dialog = await screen.findByRole('dialog', { name: conflictScreenMessages.staleTitle });
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));

    expect(await screen.findByText(conflictScreenMessages.panelSaved)).toBeVisible();
    expect(puts(fetchStub).map(({ version }) => version)).toEqual([3, 4]);
    expect(puts(fetchStub)[1]!.declarations).toEqual([
      { userId: 9, type: 'institutional', reason: '' },
    ]);
  });

  it('shows what was declared, read-only, once the call has closed', async () => {
    stubApi({
      'GET /proposals/30/conflicts/': {
        body: makeProposalConflicts({
          abilities: { declare: false, manage: false },
          conflicts: [declared({ userId: 9, type: 'collaborator', reason: 'Co-author' })],
        }),
      },
    });
    renderPanel(makeProposal({ abilities: { ...authorDraftAbilities, declareConflicts: false } }));
    expect(await screen.findByText(conflictScreenMessages.panelReadOnly)).toBeVisible();
    expect(screen.getByRole('list', { name: 'Declared conflicts' })).toHaveTextContent(
      'Grace HopperRecent collaborator: Co-author',
    );
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Conflicts' })).not.toBeInTheDocument();
  });

  it('is not there on a call with conflicts turned off, nor for those who may not see them', async () => {
    const fetchStub = stubApi({
      'GET /proposals/30/conflicts/': { body: makeProposalConflicts({ enabled: false }) },
    });
    const view = renderPanel();
    await waitFor(() =>
      expect(view.client.getQueryState(conflictKeys.ofProposal(30))?.status).toBe('success'),
    );
    expect(apiCalls(fetchStub)).toEqual(['GET /proposals/30/conflicts/']);
    expect(screen.queryByRole('heading', { name: 'Conflicts of Interest' })).toBeNull();
    view.unmount();

    const other = stubApi({});
    renderPanel(
      makeProposal({
        abilities: { ...authorDraftAbilities, declareConflicts: false, viewConflicts: false },
      }),
    );
    expect(screen.queryByRole('heading', { name: 'Conflicts of Interest' })).toBeNull();
    expect(apiCalls(other)).toEqual([]);
  });
});

describe('the proposal editor', () => {
  it('shows its author the Conflicts panel below the forms', async () => {
    stubEditor({}, { 'GET /proposals/30/conflicts/': { body: makeProposalConflicts() } });
    await openEditor();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Conflicts of Interest' }),
    ).toBeVisible();
    expect(await screen.findByRole('group', { name: 'Grace Hopper' })).toBeVisible();
  });
});
