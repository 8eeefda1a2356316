import { Button, Dialog, DialogContent } from '@mui/material';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useNotify } from './notification-context';
import { NotificationProvider } from './NotificationProvider';

/** Spec section 9, written out rather than imported so a changed constant fails here. */
const SPEC_AUTO_CLOSE_MS = 5000;

function Trigger() {
  const notify = useNotify();
  return (
    <>
      <button onClick={() => notify('Saved successfully.')}>save</button>
      <button onClick={() => notify('Could not save.', 'error')}>fail</button>
    </>
  );
}

function renderWithProvider() {
  render(
    <NotificationProvider>
      <Trigger />
    </NotificationProvider>,
  );
}

/** Lets the enter/exit transitions (timers themselves) finish. */
function settle() {
  act(() => vi.advanceTimersByTime(250));
}

describe('notifications', () => {
  it('closes by itself after 5000 ms, not before', () => {
    vi.useFakeTimers();
    renderWithProvider();

    fireEvent.click(screen.getByText('save'));
    expect(screen.getByRole('alert')).toHaveTextContent('Saved successfully.');

    act(() => vi.advanceTimersByTime(SPEC_AUTO_CLOSE_MS - 100));
    expect(screen.getByRole('alert')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(100));
    settle();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('is shown top right', () => {
    renderWithProvider();
    fireEvent.click(screen.getByText('save'));
    const snackbar = screen.getByRole('alert').parentElement!;
    expect(snackbar.className).toMatch(/anchorOriginTopRight/);
  });

  it('closes when the user dismisses it', () => {
    vi.useFakeTimers();
    renderWithProvider();
    fireEvent.click(screen.getByText('save'));

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    settle();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a newer message after the current one, with its severity', () => {
    vi.useFakeTimers();
    renderWithProvider();
    fireEvent.click(screen.getByText('save'));
    fireEvent.click(screen.getByText('fail'));
    settle();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Could not save.');
    expect(alert.className).toMatch(/colorError/);
  });

  it('is heard when raised in a confirmation over another dialog, once the confirmation closes', async () => {
    function DialogsOverDialogs() {
      const notify = useNotify();
      const [confirming, setConfirming] = useState(false);
      return (
        <Dialog open aria-label="Manage things">
          <DialogContent>
            <Button onClick={() => setConfirming(true)}>Delete a thing</Button>
          </DialogContent>
          <Dialog open={confirming} aria-label="Delete this thing?">
            <Button
              onClick={() => {
                notify('The thing has been deleted.');
                setConfirming(false);
              }}
            >
              Delete
            </Button>
          </Dialog>
        </Dialog>
      );
    }
    render(
      <NotificationProvider>
        <DialogsOverDialogs />
      </NotificationProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete a thing' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await expect
      .poll(() => screen.queryByRole('dialog', { name: 'Delete this thing?' }))
      .toBeNull();
    // Found by role, so not aria-hidden: a screen reader announces it too.
    expect(await screen.findByRole('alert')).toHaveTextContent('The thing has been deleted.');
  });
});
