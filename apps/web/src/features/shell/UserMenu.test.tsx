import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';

/** Where an element stacks: of two overlapping layers, the higher one is seen and clicked. */
const layer = (element: Element) => Number(getComputedStyle(element).zIndex);

/** The account page with a notification on screen ("… copied to the clipboard."). */
async function accountWithNotification() {
  stubApi({
    'GET /user_details/': { body: makeUser() },
    // The page's other sections, so that nothing on it fails to load.
    'GET /auth/sessions/': { body: [] },
    'GET /auth/two-factor/': {
      body: { enabled: false, enabledAt: null, recoveryCodesLeft: 0, securityKeys: 0 },
    },
  });
  const writeText = vi.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  const user = userEvent.setup();
  renderApp('/account', { token: 'k' });
  await screen.findByRole('heading', { name: 'My Account' }, AFTER_NAVIGATION);
  await user.click(screen.getByRole('button', { name: 'Copy' }));
  const notification = (await screen.findByText(/copied to the clipboard/)).closest(
    '.MuiSnackbar-root',
  )!;
  return { user, notification };
}

describe('the user menu and a notification', () => {
  it('opens above a notification, so every item stays usable', async () => {
    const { user, notification } = await accountWithNotification();

    await user.click(screen.getByRole('button', { name: 'ada' }));
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['My Account', 'Change Password', 'Logout']);
    const popover = menu.closest('.MuiPopover-root')!;
    expect(layer(popover)).toBeGreaterThan(layer(notification));
    // Still above the top bar it drops down from.
    expect(layer(notification)).toBeGreaterThan(
      layer(screen.getByRole('banner', { hidden: true })),
    );
  });

  it('keeps a notification above an open dialog, where it can be read and closed', async () => {
    const { user, notification } = await accountWithNotification();

    await user.click(screen.getByRole('button', { name: 'Edit details' }));
    const dialog = (await screen.findByRole('dialog')).closest('.MuiDialog-root')!;
    expect(layer(notification)).toBeGreaterThan(layer(dialog));
  });
});
