import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { NewPasswordInput } from './NewPasswordInput';
import { PasswordInput } from './PasswordInput';

function Login() {
  const [value, setValue] = useState('');
  return (
    <form>
      <PasswordInput
        name="password"
        label="Password"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        autoComplete="current-password"
      />
      <button type="submit">Log in</button>
    </form>
  );
}

function Choose({ owner }: { owner?: { username: string } }) {
  const [value, setValue] = useState('');
  return (
    <NewPasswordInput
      name="password1"
      label="New password"
      value={value}
      onChange={(event) => setValue(event.target.value)}
      owner={owner}
    />
  );
}

describe('PasswordInput (ASVS V2.1.12)', () => {
  it('shows and hides the password with a named button, keeping the value and autocomplete', async () => {
    const user = userEvent.setup();
    render(<Login />);
    const field = screen.getByLabelText('Password');
    await user.type(field, 'correct horse');
    expect(field).toHaveAttribute('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(field).toHaveAttribute('type', 'text');
    expect(field).toHaveValue('correct horse');
    expect(field).toHaveAttribute('autocomplete', 'current-password');

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(field).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
  });

  it('is reached and pressed from the keyboard, after the field and before the form goes on', async () => {
    const user = userEvent.setup();
    render(<Login />);
    await user.tab();
    expect(screen.getByLabelText('Password')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Show password' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Log in' })).toHaveFocus();
  });

  it('does not submit the form when pressed', async () => {
    const user = userEvent.setup();
    let submitted = 0;
    render(
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submitted += 1;
        }}
      >
        <PasswordInput name="password" label="Password" value="" />
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(submitted).toBe(0);
  });
});

describe('NewPasswordInput: the strength meter (ASVS V2.1.8)', () => {
  const meter = () => screen.queryByRole('progressbar', { name: 'Password strength' });

  it('shows nothing until the user types', () => {
    render(<Choose />);
    expect(meter()).not.toBeInTheDocument();
  });

  it.each([
    ['too short', 'Xy7#qLmz9!R', 'Too weak', 5, /at least 12 characters/],
    ['a common word and digits', 'password1234', 'Weak', 25, /Common words/],
    ['two common words', 'ilovemydog12', 'Fair', 50, /Common words/],
    ['a common word and a short one', 'princess-roses', 'Good', 75, /Common words/],
    ['random characters', 'Xy7#qLmz9!Rt', 'Strong', 100, /^Password strength: Strong$/],
  ])('rates %s (%s) %s', (_name, password, label, value, text) => {
    render(<Choose />);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
    expect(meter()).toHaveAttribute('aria-valuenow', String(value));
    expect(meter()).toHaveAttribute('aria-valuetext', label);
    const words = screen.getByText(/^Password strength:/);
    expect(words).toHaveTextContent(label);
    expect(words).toHaveTextContent(text);
  });

  it('updates as the user types, in a region screen readers announce politely', async () => {
    const user = userEvent.setup();
    render(<Choose />);
    const field = screen.getByLabelText('New password');
    await user.type(field, 'password');
    const region = screen.getByText(/^Password strength:/).closest('[aria-live]');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent('Too weak');
    await user.type(field, '1234');
    expect(region).toHaveTextContent('Weak');
    await user.type(field, '-Zq8#vK2');
    expect(region).toHaveTextContent('Strong');
  });

  it("refuses, as the server will, a password like the user's own name", () => {
    render(<Choose owner={{ username: 'adalovelace' }} />);
    fireEvent.change(screen.getByLabelText('New password'), {
      target: { value: 'adalovelace1' },
    });
    expect(meter()).toHaveAttribute('aria-valuetext', 'Too weak');
    expect(screen.getByText(/^Password strength:/)).toHaveTextContent(
      'The password is too similar to the username.',
    );
  });

  it('uses the new-password autocomplete and has the show button too', () => {
    render(<Choose />);
    expect(screen.getByLabelText('New password')).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
  });
});
