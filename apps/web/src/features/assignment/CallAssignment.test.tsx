import { assignmentMessages } from '@merit/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { chairAbilities, makeCall } from '../calls/calls.fixtures';
import { makeOverview, makeRun } from './assignment.fixtures';

/** Carla (3), a chair of the call's committee. */
const carla = makeUser({ id: 3, username: 'carla', first_name: 'Carla', last_name: 'Chair' });

const SETTINGS = 'GET /calls/12/assignment/settings/';
const PATCH_SETTINGS = 'PATCH /calls/12/assignment/settings/';
const PROPOSE = 'POST /calls/12/assignment/proposals/';
const RUN = 'GET /calls/12/assignment/proposals/70/';

function stubPage(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: carla },
    'GET /calls/12/': { body: makeCall({ abilities: chairAbilities }) },
    [SETTINGS]: { body: makeOverview() },
    ...extra,
  });
}

async function openPage() {
  const view = renderApp('/calls/12/assignment', { token: 'k' });
  await screen.findByRole('heading', { level: 1, name: 'Assign Reviewers' }, AFTER_NAVIGATION);
  await screen.findByRole('table', { name: 'Members' });
  return view;
}

/** The bodies sent to "METHOD /path", in order. */
const bodiesOf = (fetchStub: ReturnType<typeof stubApi>, call: string) =>
  fetchStub.mock.calls
    .filter((_args, index) => apiCalls(fetchStub)[index] === call)
    .map(([, init]) =>
      typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    );

const rowOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('row', { name: new RegExp(name) });

describe('the Assignment page', () => {
  it('shows the counts, the members with their loads and caps, and the call as subtitle', async () => {
    stubPage();
    await openPage();
    expect(
      screen.getByText('5 proposals · 15 reviews wanted · 6 assigned · 4 members · capacity 17'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Beamtime 2026' })).toHaveAttribute(
      'href',
      '/calls/12/',
    );
    // Capacity is enough: no warning.
    expect(screen.queryByText(/caps add up to/)).not.toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Members' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Role', 'Load', 'Cap', 'Their own cap', 'Bids']);
    // The default cap greyed in the empty field; the chair's cap written in it.
    const grace = within(rowOf(table, 'Grace Hopper')).getByRole('spinbutton', {
      name: 'Cap of Grace Hopper',
    });
    expect(grace).toHaveValue(null);
    expect(grace).toHaveAttribute('placeholder', '4');
    expect(within(table).getByRole('spinbutton', { name: 'Cap of Alan Turing' })).toHaveValue(6);
    expect(rowOf(table, 'Alan Turing')).toHaveTextContent(/Member3.*51$/);
    expect(rowOf(table, 'Carla Chair')).toHaveTextContent('Chair');
    expect(rowOf(table, 'Grace Hopper')).toHaveTextContent('—');
    // Mary's role ends before review does: Propose gives her nothing, and says why.
    const chip = within(rowOf(table, 'Mary Short')).getByText('Not available');
    await userEvent.hover(chip);
    expect(
      await screen.findByRole('tooltip', {
        name: 'Their role does not last through the review period',
      }),
    ).toBeVisible();
    expect(within(rowOf(table, 'Grace Hopper')).queryByText('Not available')).toBeNull();
    expect(screen.getByRole('link', { name: 'Open the matrix' })).toHaveAttribute(
      'href',
      '/calls/12/assignment/matrix',
    );
  });

  it('warns when the caps cannot hold the reviews wanted', async () => {
    stubPage({
      [SETTINGS]: {
        body: makeOverview({
          counts: { proposals: 5, slots: 15, assigned: 0, members: 4, capacity: 12, short: 3 },
        }),
      },
    });
    await openPage();
    expect(screen.getByRole('alert')).toHaveTextContent(assignmentMessages.capacityShort(3));
  });

  it('saves k and bidding, refuses a k it cannot mean, and shows the server’s refusal', async () => {
    const user = userEvent.setup();
    let overview = makeOverview();
    let refuse = true;
    const fetchStub = stubPage({
      [SETTINGS]: () => ({ body: overview }),
      [PATCH_SETTINGS]: ({ body }) => {
        if (refuse) {
          refuse = false;
          return {
            status: 409,
            body: { detail: assignmentMessages.callClosed, code: 'conflict' },
          };
        }
        const patch = body as { reviewsPerProposal: number; biddingOpen: boolean };
        overview = makeOverview({
          ...patch,
          counts: { ...overview.counts, slots: 5 * patch.reviewsPerProposal },
        });
        return { body: overview };
      },
    });
    await openPage();
    const k = screen.getByRole('spinbutton', { name: 'Reviews per proposal (k)' });
    await user.clear(k);
    await user.type(k, '25');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByText('Enter a whole number from 0 to 20.')).toBeVisible();
    expect(apiCalls(fetchStub)).not.toContain(PATCH_SETTINGS);

    await user.clear(k);
    await user.type(k, '2');
    await user.click(screen.getByRole('switch', { name: 'Bidding open' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(assignmentMessages.callClosed);

    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('The assignment settings have been saved.')).toBeVisible();
    expect(await screen.findByText(/^5 proposals · 10 reviews wanted/)).toBeVisible();
    expect(screen.getByRole('switch', { name: 'Bidding open' })).toBeChecked();
    expect(bodiesOf(fetchStub, PATCH_SETTINGS).at(-1)).toEqual({
      reviewsPerProposal: 2,
      biddingOpen: true,
      biddingShowsProposals: false,
    });
  });

  it('saves a member’s cap as the field is left, and empties one back to the default', async () => {
    const user = userEvent.setup();
    let overview = makeOverview();
    const fetchStub = stubPage({
      [SETTINGS]: () => ({ body: overview }),
      [PATCH_SETTINGS]: ({ body }) => {
        const caps = (body as { caps: Record<string, number | null> }).caps;
        overview = makeOverview({
          members: overview.members.map((member) =>
            String(member.userId) in caps
              ? { ...member, chairCap: caps[member.userId] ?? null }
              : member,
          ),
        });
        return { body: overview };
      },
    });
    await openPage();
    const table = screen.getByRole('table', { name: 'Members' });
    await user.type(within(table).getByRole('spinbutton', { name: 'Cap of Grace Hopper' }), '5');
    await user.tab();
    expect(await screen.findByText('Grace Hopper’s cap is now 5.')).toBeVisible();
    const alan = within(table).getByRole('spinbutton', { name: 'Cap of Alan Turing' });
    await user.clear(alan);
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Alan Turing has the default cap again.')).toBeVisible();
    // Leaving a field unchanged saves nothing.
    await user.click(within(table).getByRole('spinbutton', { name: 'Cap of Carla Chair' }));
    await user.tab();
    expect(bodiesOf(fetchStub, PATCH_SETTINGS)).toEqual([
      { caps: { '9': 5 } },
      { caps: { '10': null } },
    ]);
  });

  it('proposes, shows the progress, then the preview by member, by proposal and short, and applies it', async () => {
    const user = userEvent.setup();
    let polls = 0;
    let overview = makeOverview();
    const fetchStub = stubPage({
      [SETTINGS]: () => ({ body: overview }),
      [PROPOSE]: () => {
        overview = makeOverview({ run: { id: 70, state: 'running' } });
        return { status: 202, body: { id: 70 } };
      },
      [RUN]: () => {
        polls += 1;
        return {
          body: polls === 1 ? makeRun({ state: 'running', progress: 0.42, added: [] }) : makeRun(),
        };
      },
      'POST /calls/12/assignment/proposals/70/apply/': () => {
        overview = makeOverview({ run: null });
        return { body: { added: 3, removed: 0, mailed: 2 } };
      },
    });
    await openPage();
    await user.click(
      screen.getByRole('checkbox', { name: 'Redo assignments that are not locked or reviewed' }),
    );
    await user.click(screen.getByRole('button', { name: 'Propose assignments' }));
    expect(await screen.findByText('Working out assignments… 42 %')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Working out assignments' })).toHaveAttribute(
      'aria-valuenow',
      '42',
    );
    expect(sentBody(fetchStub, PROPOSE)).toEqual({ redo: true });

    // Asked again a second later, and ready.
    const preview = await screen.findByRole('region', { name: 'Proposed assignments' });
    expect(preview).toHaveTextContent('3 to add · 0 to take back · 1 proposal short');
    const byMember = within(preview).getByRole('table', { name: 'Proposed assignments by member' });
    expect(rowOf(byMember, 'Alan Turing')).toHaveTextContent(
      'Alan Turing3 → 55Dark matter survey, Axion search',
    );
    expect(screen.getByRole('button', { name: 'Propose assignments' })).toBeDisabled();

    await user.click(within(preview).getByRole('tab', { name: 'By proposal' }));
    const byProposal = within(preview).getByRole('table', {
      name: 'Proposed assignments by proposal',
    });
    expect(rowOf(byProposal, 'Dark matter survey')).toHaveTextContent(
      'Dark matter surveyGrace HopperEagerAlan TuringNeutral',
    );
    await user.click(within(preview).getByRole('tab', { name: 'Short (1)' }));
    expect(
      rowOf(within(preview).getByRole('table', { name: 'Proposals short of reviews' }), 'Axion'),
    ).toHaveTextContent('Axion search2All eligible members are at their cap');

    await user.click(within(preview).getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText('Assigned 3 reviews; 2 members were told by mail.'),
    ).toBeVisible();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Proposed assignments' })).toBeNull(),
    );
    expect(screen.getByRole('button', { name: 'Propose assignments' })).toBeEnabled();
  });

  it('finds the open proposal again, and on a stale Apply offers to propose again', async () => {
    const user = userEvent.setup();
    const fetchStub = stubPage({
      [SETTINGS]: { body: makeOverview({ run: { id: 70, state: 'ready' } }) },
      [RUN]: { body: makeRun() },
      'POST /calls/12/assignment/proposals/70/apply/': {
        status: 409,
        body: { detail: assignmentMessages.stale, code: 'stale' },
      },
      'DELETE /calls/12/assignment/proposals/70/': { status: 204 },
      [PROPOSE]: { status: 202, body: { id: 71 } },
      'GET /calls/12/assignment/proposals/71/': {
        body: makeRun({ id: 71, state: 'running', progress: 0 }),
      },
    });
    await openPage();
    const preview = await screen.findByRole('region', { name: 'Proposed assignments' });
    await user.click(within(preview).getByRole('button', { name: 'Apply' }));
    const stale = await within(preview).findByRole('alert');
    expect(stale).toHaveTextContent(assignmentMessages.stale);
    expect(within(preview).getByRole('button', { name: 'Apply' })).toBeDisabled();

    await user.click(within(stale).getByRole('button', { name: 'Propose again' }));
    expect(await screen.findByText('Working out assignments… 0 %')).toBeVisible();
    expect(apiCalls(fetchStub)).toEqual(
      expect.arrayContaining(['DELETE /calls/12/assignment/proposals/70/', PROPOSE]),
    );
    expect(sentBody(fetchStub, PROPOSE)).toEqual({ redo: false });
  });

  it('shows a failed proposal with Propose again, and discards a ready one after asking', async () => {
    const user = userEvent.setup();
    let failed = true;
    const fetchStub = stubPage({
      [SETTINGS]: () => ({
        body: makeOverview({ run: failed ? { id: 70, state: 'failed' } : null }),
      }),
      [RUN]: () => ({
        body: failed
          ? makeRun({ state: 'failed', error: assignmentMessages.failed, added: [] })
          : makeRun(),
      }),
      'DELETE /calls/12/assignment/proposals/70/': () => {
        failed = false;
        return { status: 204 };
      },
      [PROPOSE]: { status: 202, body: { id: 71 } },
      'GET /calls/12/assignment/proposals/71/': { body: makeRun({ id: 71 }) },
      'DELETE /calls/12/assignment/proposals/71/': { status: 204 },
    });
    await openPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(assignmentMessages.failed);
    await user.click(within(alert).getByRole('button', { name: 'Propose again' }));

    const preview = await screen.findByRole('region', { name: 'Proposed assignments' });
    await user.click(within(preview).getByRole('button', { name: 'Discard' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Discard the proposed assignments?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(apiCalls(fetchStub)).not.toContain('DELETE /calls/12/assignment/proposals/71/');
    // Found once the confirmation has gone, and the page under it is in reach again.
    await user.click(await within(preview).findByRole('button', { name: 'Discard' }));
    await user.click(
      within(
        await screen.findByRole('dialog', { name: 'Discard the proposed assignments?' }),
      ).getByRole('button', { name: 'Discard' }),
    );
    expect(await screen.findByText('The proposed assignments have been discarded.')).toBeVisible();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Proposed assignments' })).toBeNull(),
    );
  });

  it('downloads the CSV, lists an upload’s errors by line, and says what an upload did', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:assignments';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    onTestFinished(() => click.mockRestore());
    const csv = 'proposal_id,username,action\r\n30,grace,assign\r\n';
    let uploads = 0;
    const fetchStub = stubPage({
      'GET /calls/12/assignment/csv/': { text: { content: csv, type: 'text/csv' } },
      'POST /calls/12/assignment/csv/': () => {
        uploads += 1;
        return uploads === 1
          ? {
              status: 400,
              body: {
                detail: 'The request is not valid. Check the highlighted fields.',
                code: 'validation_error',
                fields: {
                  'line 12': [assignmentMessages.csvUser('nobody')],
                  'line 3': [assignmentMessages.csvAction],
                },
              },
            }
          : { body: { assigned: 2, removed: 1 } };
      },
    });
    await openPage();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('assignments-call-12.csv');
    // Saved with the byte order mark, as every CSV download is.
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(`\uFEFF${csv}`);

    const file = new File(['proposal_id,username,action\n30,nobody,assign\n'], 'mine.csv', {
      type: 'text/csv',
    });
    await user.upload(screen.getByLabelText('Upload CSV'), file);
    expect(
      await screen.findByText('Nothing was saved. Fix these lines and upload again:'),
    ).toBeVisible();
    expect(
      within(screen.getByRole('list', { name: 'Lines to fix' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `Line 3: ${assignmentMessages.csvAction}`,
      `Line 12: ${assignmentMessages.csvUser('nobody')}`,
    ]);
    const upload = fetchStub.mock.calls.find(
      ([input, init]) => init?.method === 'POST' && String(input).endsWith('/assignment/csv/'),
    )!;
    expect(upload[1]!.body).toBe('proposal_id,username,action\n30,nobody,assign\n');
    expect((upload[1]!.headers as Record<string, string>)['Content-Type']).toBe('text/csv');

    fireEvent.change(screen.getByLabelText('Upload CSV'), { target: { files: [file] } });
    expect(
      await screen.findByText('The CSV has been uploaded: 2 reviews assigned, 1 removed.'),
    ).toBeVisible();
    expect(screen.queryByText('Nothing was saved. Fix these lines and upload again:')).toBeNull();
  });

  it('lets no one in whom the call does not allow to assign', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: carla },
      'GET /calls/12/': { body: makeCall() },
    });
    renderApp('/calls/12/assignment', { token: 'k' });
    expect(await screen.findByText('Access denied', {}, AFTER_NAVIGATION)).toBeVisible();
    expect(apiCalls(fetchStub)).not.toContain(SETTINGS);
  });
});
