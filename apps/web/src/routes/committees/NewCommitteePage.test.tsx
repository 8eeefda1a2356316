import { committeeMessages, messages } from '@merit/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminUser } from '../../test/admin-fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';

describe('NewCommitteePage', () => {
  it("shows the server's message under the field it is about, and in the red list", async () => {
    stubApi({
      'GET /user_details/': { body: adminUser },
      'POST /committees/': {
        status: 400,
        body: {
          detail: messages.validationFailed,
          code: 'validation_error',
          fields: { name: [committeeMessages.nameTaken] },
        },
      },
    });
    const user = userEvent.setup();
    renderApp('/committees/new', { token: 'k' });
    await screen.findByRole('heading', { name: 'New Committee' }, AFTER_NAVIGATION);

    const name = screen.getByRole('textbox', { name: /^Name/ });
    fireEvent.change(name, { target: { value: 'Telescope Time' } });
    await user.click(screen.getByRole('button', { name: 'Add Committee' }));

    const alert = await screen.findByRole('alert');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([messages.validationFailed, `Name: ${committeeMessages.nameTaken}`]);
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(committeeMessages.nameTaken);

    // Editing the name clears the message with the list (spec section 8).
    fireEvent.change(name, { target: { value: 'Telescope Time 2' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'false');
    expect(name).not.toHaveAccessibleDescription();
  });
});
