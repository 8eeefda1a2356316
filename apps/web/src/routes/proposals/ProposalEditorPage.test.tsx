import type { LockState, ProposalDetail } from '@merit/contract';
import { LOCK_POLL_MS, proposalMessages, submissionStandingMessages } from '@merit/domain';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADA_HOLDS_IT,
  answerTo,
  count,
  fakeAnswers,
  GRACE_HOLDS_IT,
  openEditor,
  PATH,
  saves,
  stubEditor,
  tab,
} from '../../features/proposals/editor/editor.fixtures';
import { formatCallDate } from '../../features/calls/call-dates';
import { makeProposal, readerAbilities } from '../../features/proposals/proposals.fixtures';
import { fakePollTimers } from '../../test/fixtures';
import { sentBody } from '../../test/render-app';
import { LOAD_TIMEOUT } from '../../test/timeouts';
import { preloadFirstRoute } from '../routes';

// The page's code (the shell, react-jsonschema-form, the validator) is loaded as the app
// loads it when it starts on this address, before the tests: otherwise the first test's
// wait for the heading paid its first evaluation, which on a loaded machine outlasted it.
beforeAll(() => preloadFirstRoute(PATH, true), LOAD_TIMEOUT);

describe('ProposalEditorPage', () => {
  it('shows a tab per form, marks unsaved changes, and saves the form in view', async () => {
    const user = userEvent.setup();
    const fetchStub = stubEditor();
    await openEditor();
    expect(screen.getAllByRole('tab').map((item) => item.textContent)).toEqual([
      'Project Details',
      'Team Members',
    ]);
    // Opening a form is not changing it.
    expect(tab('Project Details')).toHaveAccessibleName('Project Details');

    await user.type(screen.getByRole('textbox', { name: /Project title/ }), 'Axions');
    expect(tab('Project Details')).toHaveAccessibleName('Project Details Unsaved changes');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(sentBody(fetchStub, 'POST /proposal_responses/')).toEqual({
      call: 12,
      proposalTypeId: 40,
      proposal: 30,
      new: false,
      hash: expect.any(Number),
      formId: 1,
      index: 0,
      singleSave: true,
      validate: true,
      data: { title: 'Axions' },
      // Nothing was saved to the form yet: its first answers make its entry.
      entryId: null,
      version: null,
    });
    // Only this form: the other tab was not sent.
    expect(saves(fetchStub)).toHaveLength(1);
    expect(tab('Project Details')).toHaveAccessibleName('Project Details');
    expect(screen.getByRole('textbox', { name: /Project title/ })).toHaveValue('Axions');
  });

  it('saves every form with Save All, one after another under one hash', async () => {
    const user = userEvent.setup();
    const fetchStub = stubEditor({
      responses: { '3': [{ full_name: 'Vera Rubin' }] },
    });
    await openEditor();
    await user.type(screen.getByRole('textbox', { name: /Project title/ }), 'Axions');
    await user.click(tab('Team Members'));
    await user.click(screen.getByRole('button', { name: 'Add Another' }));
    await user.type(screen.getAllByRole('textbox', { name: /Full name/ })[1]!, 'Fritz Zwicky');

    await user.click(screen.getByRole('button', { name: 'Save All' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    const sent = saves(fetchStub);
    // The saved, unchanged first entry is not sent again.
    expect(sent.map(({ formId, index, data }) => ({ formId, index, data }))).toEqual([
      { formId: 1, index: 0, data: { title: 'Axions' } },
      { formId: 3, index: 1, data: { full_name: 'Fritz Zwicky' } },
    ]);
    expect(new Set(sent.map(({ hash }) => hash)).size).toBe(1);
    expect(sent[0]!.hash).toBeGreaterThanOrEqual(0);
    expect(sent[0]!.hash).toBeLessThan(2 ** 31);
    expect(sent.every(({ singleSave }) => !singleSave)).toBe(true);
  });

  it('shows the failing form’s tab with the spec’s message, and sends nothing of it', async () => {
    const user = userEvent.setup();
    const fetchStub = stubEditor();
    await openEditor();
    await user.click(tab('Team Members'));
    await user.type(screen.getByRole('textbox', { name: /Full name/ }), 'Vera Rubin');

    await user.click(screen.getByRole('button', { name: 'Save All' }));
    // The empty Project title stops its form; the other is saved.
    expect(await screen.findByText(proposalMessages.saveFailed)).toBeInTheDocument();
    expect(tab('Project Details')).toHaveAttribute('aria-selected', 'true');
    expect(tab('Project Details')).toHaveAccessibleName('Project Details Has errors');
    expect(screen.getAllByText('Project title is required.')).not.toHaveLength(0);
    expect(saves(fetchStub).map(({ formId }) => formId)).toEqual([3]);
    expect(screen.queryByText('Saved successfully.')).not.toBeInTheDocument();

    // Each error clears as it is fixed.
    await user.type(screen.getByRole('textbox', { name: /Project title/ }), 'Axions');
    expect(screen.queryByText('Project title is required.')).not.toBeInTheDocument();
  });

  it('shows the server’s field messages when it refuses a save', async () => {
    const user = userEvent.setup();
    stubEditor(
      {},
      {
        'POST /proposal_responses/': {
          status: 400,
          body: {
            detail: proposalMessages.saveFailed,
            code: 'validation_error',
            fields: { title: ['Project title must not start with a space.'] },
          },
        },
      },
    );
    await openEditor();
    await user.type(screen.getByRole('textbox', { name: /Project title/ }), ' Axions');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(proposalMessages.saveFailed)).toBeInTheDocument();
    const field = screen.getByRole('textbox', { name: /Project title/ });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Project title must not start with a space.')).not.toHaveLength(0);
  });

  it('saves a work in progress without checks when the switch is off', async () => {
    const user = userEvent.setup();
    const fetchStub = stubEditor();
    await openEditor();
    await user.type(screen.getByRole('textbox', { name: /Summary/ }), 'Half a thought');
    await user.click(screen.getByRole('switch', { name: 'Check answers when saving' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(saves(fetchStub)).toMatchObject([
      { formId: 1, validate: false, data: { summary: 'Half a thought' } },
    ]);
  });

  it('adds entries to a multi-entry form, and deletes one after asking', async () => {
    const user = userEvent.setup();
    const fetchStub = stubEditor(
      { responses: { '3': [{ full_name: 'Vera Rubin' }, { full_name: 'Fritz Zwicky' }] } },
      { 'DELETE /delete_multi_form/': { status: 204 } },
    );
    await openEditor(`${PATH}?tab=3`);
    expect(screen.getByRole('button', { name: 'Entry 1' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Entry 2' })).toBeInTheDocument();
    // Each entry is a region named by its summary, which controls it.
    const second = screen.getByRole('region', { name: 'Entry 2' });
    expect(screen.getByRole('button', { name: 'Entry 2' })).toHaveAttribute(
      'aria-controls',
      second.id,
    );
    expect(within(second).getByRole('textbox', { name: /Full name/ })).toHaveValue('Fritz Zwicky');
    // One heading for the form (its name); the schema's title is not repeated under it,
    // its description is kept.
    expect(screen.getAllByRole('heading', { name: /team members/i })).toHaveLength(1);
    expect(screen.getAllByText('Everyone who works on the project.')).not.toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete entry 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this entry?' });
    expect(dialog).toHaveTextContent(proposalMessages.deleteEntryConfirm);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Entry 2' })).not.toBeInTheDocument();
    expect(sentBody(fetchStub, 'DELETE /delete_multi_form/')).toEqual({
      callId: 12,
      proposalId: 30,
      formId: 3,
      entryId: '00000000-0000-4000-8000-000000000002',
      formIndex: 1,
    });
    // The last entry stays: its Delete is disabled.
    expect(screen.getByRole('button', { name: 'Delete entry 1' })).toBeDisabled();

    // An entry added and not saved yet goes without asking the server.
    await user.click(screen.getByRole('button', { name: 'Add Another' }));
    expect(tab('Team Members')).toHaveAccessibleName('Team Members Unsaved changes');
    await user.click(screen.getByRole('button', { name: 'Delete entry 2' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Entry 2' })).not.toBeInTheDocument();
    expect(count(fetchStub, 'DELETE /delete_multi_form/')).toBe(1);
    expect(tab('Team Members')).toHaveAccessibleName('Team Members');
  });

  it('moves the focus into a new entry, and to the entry before a deleted one', async () => {
    const user = userEvent.setup();
    stubEditor(
      { responses: { '3': [{ full_name: 'Vera Rubin' }, { full_name: 'Fritz Zwicky' }] } },
      { 'DELETE /delete_multi_form/': { status: 204 } },
    );
    await openEditor(`${PATH}?tab=3`);

    await user.click(screen.getByRole('button', { name: 'Add Another' }));
    const third = await screen.findByRole('region', { name: /^Entry 3/ });
    await waitFor(() =>
      expect(within(third).getByRole('textbox', { name: /Full name/ })).toHaveFocus(),
    );
    // Typing goes straight into it.
    await user.keyboard('Henrietta Leavitt');
    expect(within(third).getByRole('textbox', { name: /Full name/ })).toHaveValue(
      'Henrietta Leavitt',
    );

    // A saved entry, deleted after asking: the entry before it has the focus.
    await user.click(screen.getByRole('button', { name: 'Delete entry 2' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete this entry?' })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: /^Entry 1/ })).toHaveFocus());

    // The first entry deleted: the one after it, now first, has the focus.
    await user.click(screen.getByRole('button', { name: 'Delete entry 1' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete this entry?' })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: /^Entry 1/ })).toHaveFocus());
    expect(screen.getByRole('textbox', { name: /Full name/ })).toHaveValue('Henrietta Leavitt');

    // Cancelled: the focus goes back to the Delete button, and nothing moves it.
    await user.click(screen.getByRole('button', { name: 'Add Another' }));
    await user.click(screen.getByRole('button', { name: 'Delete entry 2' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete this entry?' })).getByRole(
        'button',
        { name: 'Cancel' },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Delete entry 2' })).toHaveFocus(),
    );
  });

  it('keeps a textarea to its word limit and counts the words', async () => {
    stubEditor();
    await openEditor();
    const summary = screen.getByRole('textbox', { name: /Summary/ });
    expect(summary).toHaveAccessibleDescription('0 / 5 words');

    fireEvent.change(summary, { target: { value: 'one two  three\nfour five six seven' } });
    expect(summary).toHaveValue('one two  three\nfour five ');
    expect(summary).toHaveAccessibleDescription('5 / 5 words');
  });

  it('is read-only, with a badge naming the holder, while someone else holds the lock', async () => {
    stubEditor({}, { 'GET /lock/30/': { body: GRACE_HOLDS_IT } });
    await openEditor(PATH, { editable: false });
    expect(await screen.findByText('Locked by Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText(proposalMessages.locked('Grace Hopper'))).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Project title/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Proposal Name' })).not.toBeInTheDocument();
    // Submitting is the lock holder's to wait for too.
    await userEvent.click(screen.getByRole('button', { name: 'Manage' }));
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Save PDF', 'Manage Collaborators', 'Manage Uploaded Files']);
  });

  it('shows the answers read-only, and never takes the lock, to someone who may not edit', async () => {
    const fetchStub = stubEditor({
      responses: {
        '1': { title: 'Axions' },
        '3': [{ full_name: 'Vera Rubin' }, { full_name: 'Fritz Zwicky' }],
      },
      abilities: readerAbilities,
      state: 'Submitted',
      stateVal: 1,
    });
    await openEditor(PATH, { editable: false });
    // A page to read, not greyed-out fields (issue 30).
    expect(answerTo('Project title')).toHaveTextContent('Axions');
    expect(answerTo('Summary')).toHaveTextContent('Not answered.');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByText(proposalMessages.submitted)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save All' })).not.toBeInTheDocument();
    expect(count(fetchStub, 'GET /lock/30/')).toBe(0);
    // Each entry of a multi-entry form is a section under its heading.
    await userEvent.click(tab('Team Members'));
    const second = screen.getByRole('region', { name: 'Entry 2' });
    expect(within(second).getByRole('heading', { name: 'Entry 2' })).toBeInTheDocument();
    expect(answerTo('Full name', second)).toHaveTextContent('Fritz Zwicky');
    expect(screen.queryByRole('button', { name: /Delete entry/ })).not.toBeInTheDocument();
    // Whoever sees a proposal may save its PDF and see its files, and nothing more.
    await userEvent.click(screen.getByRole('button', { name: 'Manage' }));
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Save PDF', 'Manage Uploaded Files']);
  });

  it.each([
    [
      'submitted while its author may retract it',
      1,
      { status: 'open', reopensAt: null },
      submissionStandingMessages.submittedOpen,
    ],
    [
      'submitted, its deadline passed: no retract',
      1,
      { status: 'closed', reopensAt: null },
      submissionStandingMessages.submittedClosed,
    ],
    [
      'a draft past its deadline',
      0,
      { status: 'closed', reopensAt: null },
      submissionStandingMessages.draftClosed,
    ],
    [
      'a draft whose author has an extension to come',
      0,
      { status: 'reopens', reopensAt: '2026-04-05T09:00:00.000Z' },
      submissionStandingMessages.draftReopens(formatCallDate('2026-04-05T09:00:00.000Z')),
    ],
  ] as const)('says what can be done with %s', async (_name, stateVal, submission, message) => {
    stubEditor({
      responses: { '1': { title: 'Axions' } },
      abilities: readerAbilities,
      state: stateVal > 0 ? 'Submitted' : 'Draft',
      stateVal,
      submission: { ...submission },
    });
    await openEditor(PATH, { editable: false });
    expect(await screen.findByText(message)).toBeInTheDocument();
    if (submission.status !== 'open')
      expect(screen.queryByText(/retract it to edit it again\./)).not.toBeInTheDocument();
  });

  it('renews the lock every 5 s, waits again after a save, and gives it back on leaving', async () => {
    fakePollTimers();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const fetchStub = stubEditor();
    const view = await openEditor();
    await waitFor(() => expect(count(fetchStub, 'GET /lock/30/')).toBe(1));

    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS));
    await waitFor(() => expect(count(fetchStub, 'GET /lock/30/')).toBe(2));

    // A save part-way through the wait starts it again.
    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS / 2));
    await user.type(screen.getByRole('textbox', { name: /Project title/ }), 'A');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved successfully.');
    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS - 100));
    expect(count(fetchStub, 'GET /lock/30/')).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(200));
    await waitFor(() => expect(count(fetchStub, 'GET /lock/30/')).toBe(3));

    await act(() => view.router.navigate('/calls/12/'));
    await waitFor(() => expect(count(fetchStub, 'DELETE /lock/30/')).toBe(1));
    const release = fetchStub.mock.calls.find(([, init]) => init?.method === 'DELETE');
    // So that it is still sent when the leaving is the tab closing.
    expect(release![1]).toMatchObject({ keepalive: true });
  });

  it('opens the answers for editing, as last saved, once the lock holder leaves', async () => {
    fakePollTimers();
    let holder: LockState = GRACE_HOLDS_IT;
    const saved = fakeAnswers();
    stubEditor({}, { 'GET /lock/30/': () => ({ body: holder }) }, saved);
    await openEditor(PATH, { editable: false });
    expect(await screen.findByText('Locked by Grace Hopper')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Project title/ })).toBeDisabled();

    // Grace saved a title and left.
    saved.saveAs('Grace Hopper', 1, 0, { title: 'Comet dust' });
    holder = ADA_HOLDS_IT;
    await act(() => vi.advanceTimersByTimeAsync(LOCK_POLL_MS));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /Project title/ })).toHaveValue('Comet dust'),
    );
    expect(screen.getByRole('textbox', { name: /Project title/ })).toBeEnabled();
    expect(screen.queryByText('Locked by Grace Hopper')).not.toBeInTheDocument();
  });

  it('gives the lock back when the tab is closed', async () => {
    const fetchStub = stubEditor();
    await openEditor();
    await waitFor(() => expect(count(fetchStub, 'GET /lock/30/')).toBe(1));
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(count(fetchStub, 'DELETE /lock/30/')).toBe(1));
  });

  it('asks before leaving unsaved changes, in the app and as the tab closes', async () => {
    const user = userEvent.setup();
    stubEditor();
    const view = await openEditor();
    await user.type(screen.getByRole('textbox', { name: /Project title/ }), 'Axions');

    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Proposals' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog).toHaveTextContent('Your changes to Project Details are not saved.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(view.location()).toBe(PATH);
    expect(screen.getByRole('textbox', { name: /Project title/ })).toHaveValue('Axions');

    // Another tab of forms is no leaving.
    await user.click(tab('Team Members'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Proposals' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }),
    );
    await waitFor(() => expect(view.location()).toBe('/calls/12/proposals/'));
  });

  it('saves the form in view with Ctrl+S and Cmd+S', async () => {
    const user = userEvent.setup();
    const fetchStub = stubEditor();
    await openEditor();
    await user.type(screen.getByRole('textbox', { name: /Project title/ }), 'Axions');
    await user.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    expect(saves(fetchStub)).toMatchObject([{ formId: 1, data: { title: 'Axions' } }]);

    await user.type(screen.getByRole('textbox', { name: /Project title/ }), ' survey');
    await user.keyboard('{Meta>}s{/Meta}');
    await waitFor(() => expect(saves(fetchStub)).toHaveLength(2));
    expect(saves(fetchStub)[1]).toMatchObject({ data: { title: 'Axions survey' } });
  });

  it('renames the proposal', async () => {
    const user = userEvent.setup();
    let proposalName = 'Dark matter survey';
    const fetchStub = stubEditor(
      {},
      {
        'GET /proposals/30/': () => ({ body: makeProposal({ proposalName }) }),
        'POST /update_proposal_name/': ({ body }) => {
          proposalName = (body as { name: string }).name;
          return { body: makeProposal({ proposalName }) };
        },
      },
    );
    await openEditor();
    const name = screen.getByRole('textbox', { name: 'Proposal Name' });
    await user.clear(name);
    await user.type(name, 'Axion survey');
    await user.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByRole('heading', { name: 'Axion survey' })).toBeInTheDocument();
    expect(sentBody(fetchStub, 'POST /update_proposal_name/')).toEqual({
      callId: 12,
      isNew: false,
      proposalId: 30,
      name: 'Axion survey',
      type: 40,
    });
  });

  it('adds collaborators by hash, with the server’s refusal in red, and removes them', async () => {
    const user = userEvent.setup();
    let collaborators: ProposalDetail['collaborators'] = [];
    const fetchStub = stubEditor(
      {},
      {
        'GET /proposals/30/': () => ({ body: makeProposal({ collaborators }) }),
        'POST /collaborators/': ({ body }) => {
          if ((body as { hash: string }).hash !== 'Gr4ceH0pp3') {
            return {
              status: 400,
              body: {
                detail: 'The request is not valid. Check the highlighted fields.',
                code: 'validation_error',
                fields: { hash: [proposalMessages.hashUnknown] },
              },
            };
          }
          const grace = { id: 9, name: 'Grace Hopper', email: 'grace@example.org' };
          collaborators = [grace];
          return { status: 201, body: grace };
        },
        'DELETE /collaborators/': () => {
          collaborators = [];
          return { status: 204 };
        },
      },
    );
    await openEditor();
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    await user.click(screen.getByRole('menuitem', { name: 'Manage Collaborators' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Collaborators' });
    expect(dialog).toHaveTextContent('This proposal has no collaborators yet.');

    const hash = within(dialog).getByRole('textbox', { name: 'Collaborator hash' });
    await user.type(hash, 'Xx0000000x');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const errors = await within(dialog).findByRole('alert');
    expect(errors).toHaveTextContent(`Collaborator hash: ${proposalMessages.hashUnknown}`);
    expect(hash).toHaveAccessibleDescription(proposalMessages.hashUnknown);

    await user.clear(hash);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.type(hash, 'Gr4ceH0pp3');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const list = await within(dialog).findByRole('list', { name: 'Collaborators' });
    expect(list).toHaveTextContent('Grace Hopper');
    expect(sentBody(fetchStub, 'POST /collaborators/')).toEqual({
      proposalId: 30,
      hash: 'Xx0000000x',
    });

    await user.click(within(dialog).getByRole('button', { name: 'Remove Grace Hopper' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove this collaborator?' })).getByRole(
        'button',
        { name: 'Remove' },
      ),
    );
    expect(
      await within(dialog).findByText('This proposal has no collaborators yet.'),
    ).toBeVisible();
    expect(sentBody(fetchStub, 'DELETE /collaborators/')).toEqual({ proposalId: 30, userId: 9 });
  });

  it('submits after asking, and lists the forms to fix when the server refuses', async () => {
    const user = userEvent.setup();
    const fetchStub = stubEditor(
      {},
      {
        'POST /proposal_state/': {
          status: 400,
          body: {
            detail: proposalMessages.invalidForms,
            code: 'invalid_forms',
            fields: { '1': ['Project title is required.'], '3': ['Full name is required.'] },
          },
        },
      },
    );
    await openEditor();
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Save PDF',
      'Manage Collaborators',
      'Manage Uploaded Files',
      'Submit Proposal',
      'Delete Proposal',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Submit Proposal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Submit this proposal?' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit Proposal' }));

    const problems = await screen.findByText(proposalMessages.invalidForms);
    const list = problems.closest('[role="alert"]')!;
    expect(list).toHaveTextContent('Project Details: Project title is required.');
    expect(list).toHaveTextContent('Team Members: Full name is required.');
    expect(sentBody(fetchStub, 'POST /proposal_state/')).toEqual({ proposalId: 30, state: 1 });
  });

  it('takes each form off a refused submit’s list once it is saved complete', async () => {
    const user = userEvent.setup();
    stubEditor(
      {},
      {
        'POST /proposal_state/': {
          status: 400,
          body: {
            detail: proposalMessages.invalidForms,
            code: 'invalid_forms',
            fields: { '1': ['Project title is required.'], '3': ['Full name is required.'] },
          },
        },
      },
    );
    await openEditor();
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    await user.click(screen.getByRole('menuitem', { name: 'Submit Proposal' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Submit this proposal?' })).getByRole(
        'button',
        { name: 'Submit Proposal' },
      ),
    );
    const list = (await screen.findByText(proposalMessages.invalidForms)).closest(
      '[role="alert"]',
    )!;
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Typed but not saved: still to fix.
    await user.type(screen.getByRole('textbox', { name: /Project title/ }), 'Axions');
    expect(list).toHaveTextContent('Project Details: Project title is required.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully.')).toBeInTheDocument();
    await waitFor(() =>
      expect(list).not.toHaveTextContent('Project Details: Project title is required.'),
    );
    expect(list).toHaveTextContent('Team Members: Full name is required.');

    await user.click(tab('Team Members'));
    await user.type(screen.getByRole('textbox', { name: /Full name/ }), 'Vera Rubin');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.queryByText(proposalMessages.invalidForms)).not.toBeInTheDocument(),
    );
    expect(screen.queryByText(/Full name is required/)).not.toBeInTheDocument();
  });

  it('retracts a submitted proposal after asking, and opens it for editing again', async () => {
    const user = userEvent.setup();
    let submitted = true;
    const fetchStub = stubEditor(
      {},
      {
        'GET /proposals/30/': () => ({
          body: submitted
            ? makeProposal({
                state: 'Submitted',
                stateVal: 1,
                abilities: { ...readerAbilities, retract: true, manageCollaborators: true },
              })
            : makeProposal(),
        }),
        'POST /proposal_state/': () => {
          submitted = false;
          return { body: makeProposal() };
        },
      },
    );
    await openEditor(PATH, { editable: false });
    expect(screen.queryByRole('textbox', { name: /Project title/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    await user.click(screen.getByRole('menuitem', { name: 'Retract Proposal' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Retract this proposal?' })).getByRole(
        'button',
        { name: 'Retract Proposal' },
      ),
    );

    expect(
      await screen.findByText('The proposal has been retracted: it is a draft again.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /Project title/ })).toBeEnabled(),
    );
    expect(sentBody(fetchStub, 'POST /proposal_state/')).toEqual({ proposalId: 30, state: 0 });
  });
});
