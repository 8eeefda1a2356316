import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeAltcha } from '../../test/fake-altcha';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';

vi.mock('./captcha/load-altcha', () => import('../../test/fake-altcha'));

beforeEach(resetFakeAltcha);

describe('registration from an invitation link', () => {
  it('names the committee that sent it', async () => {
    stubApi({ 'GET /invitations/3.good': { body: { committeeName: 'Synchrotron' } } });
    renderApp('/auth/register?invite=3.good');
    expect(
      await screen.findByText(
        /You are registering to join Synchrotron\./,
        undefined,
        AFTER_NAVIGATION,
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });

  it('says when the link is not valid, and still lets the person register', async () => {
    // A malformed token is a plain 404 ("Not found."): the page says the same for both.
    stubApi({
      'GET /invitations/3.bad': { status: 404, body: { detail: 'Not found.', code: 'not_found' } },
    });
    renderApp('/auth/register?invite=3.bad');
    expect(
      await screen.findByText(
        'This invitation link is not valid. Ask the person who sent it for a new link, or register without one.',
        undefined,
        AFTER_NAVIGATION,
      ),
    ).toBeVisible();
    expect(screen.queryByText(/You are registering to join/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });

  it('says nothing of invitations without one', async () => {
    stubApi({});
    renderApp('/auth/register');
    expect(
      await screen.findByRole('button', { name: 'Register' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(screen.queryByText(/invitation|registering to join/i)).not.toBeInTheDocument();
  });
});
