import type { RecentCollaborator } from '@merit/contract';
import { conflictScreenMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';
import { renderInRouter } from '../../test/render-in-router';
import { RecentCollaborators } from './RecentCollaborators';

/** GET and PUT as the server keeps the list. */
function collaboratorsServer(initial: RecentCollaborator[], put?: Parameters<typeof stubApi>[0]) {
  let current = initial;
  return stubApi({
    'GET /recent_collaborators/': () => ({ body: { collaborators: current } }),
    'PUT /recent_collaborators/': ({ body }) => {
      current = (body as { collaborators: RecentCollaborator[] }).collaborators;
      return { body: { collaborators: current } };
    },
    ...put,
  });
}

const row = (name: string) => screen.getByRole('listitem', { name });

describe('My Account’s recent collaborators', () => {
  it('says what the list is for and what to do when it is empty, then adds one and saves', async () => {
    const user = userEvent.setup();
    const fetchStub = collaboratorsServer([]);
    renderInRouter(<RecentCollaborators />);
    expect(await screen.findByText(conflictScreenMessages.collaboratorsHelp)).toBeVisible();
    expect(screen.getByText(conflictScreenMessages.collaboratorsEmpty)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Add Collaborator' }));
    await user.type(
      within(row('Collaborator 1')).getByRole('textbox', { name: 'Name' }),
      'Grace Hopper',
    );
    // Both are needed: nothing is sent without the email.
    await user.click(screen.getByRole('button', { name: 'Save Collaborators' }));
    expect(within(row('Collaborator 1')).getByText('Enter the email address.')).toBeVisible();
    expect(apiCalls(fetchStub)).not.toContain('PUT /recent_collaborators/');

    await user.type(
      within(row('Collaborator 1')).getByRole('textbox', { name: 'Email' }),
      'grace@navy.mil',
    );
    await user.click(screen.getByRole('button', { name: 'Save Collaborators' }));
    expect(await screen.findByText(conflictScreenMessages.collaboratorsSaved)).toBeVisible();
    expect(sentBody(fetchStub, 'PUT /recent_collaborators/')).toEqual({
      collaborators: [{ name: 'Grace Hopper', email: 'grace@navy.mil' }],
    });
  });

  it('removes one, leaves out empty rows, and shows the server’s word under the field', async () => {
    const user = userEvent.setup();
    const fetchStub = collaboratorsServer(
      [
        { name: 'Grace Hopper', email: 'grace@navy.mil' },
        { name: 'Alan Turing', email: 'alan@manchester.ac.uk' },
      ],
      {
        'PUT /recent_collaborators/': {
          status: 400,
          body: {
            detail: 'The request is not valid. Check the highlighted fields.',
            code: 'validation_error',
            fields: { 'collaborators.0.email': ['Please enter a valid email address.'] },
          },
        },
      },
    );
    renderInRouter(<RecentCollaborators />);
    await screen.findByRole('listitem', { name: 'Collaborator 2' });
    await user.click(screen.getByRole('button', { name: 'Remove Grace Hopper' }));
    await user.click(screen.getByRole('button', { name: 'Add Collaborator' }));
    await user.click(screen.getByRole('button', { name: 'Save Collaborators' }));

    await waitFor(() =>
      expect(sentBody(fetchStub, 'PUT /recent_collaborators/')).toEqual({
        collaborators: [{ name: 'Alan Turing', email: 'alan@manchester.ac.uk' }],
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Collaborator 1, email: Please enter a valid email address.',
    );
    expect(
      within(row('Collaborator 1')).getByRole('textbox', { name: 'Email' }),
    ).toHaveAccessibleDescription('Please enter a valid email address.');
  });

  it('is a section of My Account', async () => {
    collaboratorsServer([{ name: 'Grace Hopper', email: 'grace@navy.mil' }], {
      'GET /user_details/': { body: makeUser() },
      'GET /auth/sessions/': { body: [] },
    });
    renderApp('/account/', { token: 'k' });
    const section = await screen.findByRole(
      'region',
      { name: 'Recent collaborators' },
      AFTER_NAVIGATION,
    );
    expect(await within(section).findByRole('textbox', { name: 'Email' })).toHaveValue(
      'grace@navy.mil',
    );
  });
});
