import { validationMessages } from '@merit/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, sentBody, stubApi } from '../../test/render-app';

const federated = makeUser({
  email: 'ada@uni.example.edu',
  institution: 'University of Examples',
  gender: null,
  phone_number: '',
  is_aaf: true,
  registration_complete: false,
});

describe('CompleteRegistrationPage', () => {
  it('shows the email read-only and fills in what the institution released', async () => {
    stubApi({ 'GET /user_details/': { body: federated } });
    renderApp('/auth/complete_registration', { token: 'k' });
    await screen.findByRole('heading', { name: 'Complete Registration' });

    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('ada@uni.example.edu');
    expect(email).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Institution/)).toHaveValue('University of Examples');
    expect(screen.getByLabelText(/^Gender/)).toHaveValue('');
  });

  it('saves the missing details and goes on to the dashboard', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: federated },
      'POST /auth/complete_registration/': {
        body: {
          ...federated,
          gender: 'FEMALE',
          phone_number: '0412 345 678',
          registration_complete: true,
        },
      },
    });
    const app = renderApp('/auth/complete_registration', { token: 'k' });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Complete Registration' });

    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    const alert = await screen.findByRole('alert');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toContain(`Phone number: ${validationMessages.required}`);

    fireEvent.change(screen.getByLabelText(/^Gender/), { target: { value: 'FEMALE' } });
    fireEvent.change(screen.getByLabelText(/^Phone number/), {
      target: { value: '0412 345 678' },
    });
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));

    expect(
      await screen.findByRole('heading', { name: 'Dashboard' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(app.location()).toBe('/');
    expect(sentBody(fetchStub, 'POST /auth/complete_registration/')).toEqual({
      institution: 'University of Examples',
      gender_choice: 'FEMALE',
      phone_number: '0412 345 678',
      is_student: false,
    });
  });
});
