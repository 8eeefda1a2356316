import { editingMessages } from '@merit/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConflictChoiceDialog, type Conflict } from './ConflictChoiceDialog';

function conflict(overrides: Partial<Conflict> = {}): Conflict {
  return {
    id: 'a',
    message: 'Project Details: Grace Hopper saved other answers at 14:32.',
    rows: [{ label: 'Project Details: Title', mine: 'Axions', theirs: 'Dark matter' }],
    copy: { text: 'Project Details: Title\nAxions' },
    onKeepMine: vi.fn(),
    onTakeTheirs: vi.fn(),
    ...overrides,
  };
}

const group = (message: RegExp) => screen.getByRole('group', { name: message });

describe('ConflictChoiceDialog', () => {
  it('shows each conflict with what differs, and its own three choices', async () => {
    const user = userEvent.setup();
    const first = conflict();
    const second = conflict({
      id: 'b',
      message: 'Budget: Someone saved other answers.',
      rows: [],
      copy: { text: 'Budget' },
    });
    render(<ConflictChoiceDialog open conflicts={[first, second]} />);

    const dialog = screen.getByRole('dialog', { name: editingMessages.conflictTitle });
    expect(dialog).toHaveTextContent(editingMessages.conflictHelp);
    const row = within(group(/^Project Details/)).getByRole('row', { name: /Title/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Axions', 'Dark matter']);
    expect(within(group(/^Budget/)).queryByRole('table')).not.toBeInTheDocument();

    await user.click(within(group(/^Project Details/)).getByRole('button', { name: 'Keep mine' }));
    expect(first.onKeepMine).toHaveBeenCalledOnce();
    await user.click(within(group(/^Budget/)).getByRole('button', { name: 'Take theirs' }));
    expect(second.onTakeTheirs).toHaveBeenCalledWith({ copied: false });
    expect(first.onTakeTheirs).not.toHaveBeenCalled();
  });

  it('Copy mine puts the work on the clipboard, then takes theirs', async () => {
    const user = userEvent.setup();
    const item = conflict();
    render(<ConflictChoiceDialog open conflicts={[item]} title="Changed" help="Choose." />);
    expect(screen.getByRole('dialog', { name: 'Changed' })).toHaveTextContent('Choose.');
    await user.click(screen.getByRole('button', { name: 'Copy mine' }));

    expect(item.onTakeTheirs).toHaveBeenCalledWith({ copied: true });
    expect(await navigator.clipboard.readText()).toBe('Project Details: Title\nAxions');
  });

  it('keeps the person’s work when the clipboard refuses it, and says so', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Not allowed'));
    const item = conflict();
    render(<ConflictChoiceDialog open conflicts={[item]} copyFailed="Copy it by hand." />);
    await user.click(screen.getByRole('button', { name: 'Copy mine' }));

    expect(await screen.findByText('Copy it by hand.')).toBeVisible();
    expect(item.onTakeTheirs).not.toHaveBeenCalled();
  });

  it('waits while a choice is carried out, and cannot be dismissed unanswered', async () => {
    const user = userEvent.setup();
    render(<ConflictChoiceDialog open conflicts={[conflict()]} pending />);
    for (const name of ['Keep mine', 'Take theirs', 'Copy mine'])
      expect(screen.getByRole('button', { name })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeVisible();
  });
});
