import { timeZoneLabel } from '@merit/domain';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DraftOfferBanner } from './DraftOfferBanner';

const now = new Date(2026, 2, 3, 18, 5);

describe('DraftOfferBanner', () => {
  it('says when the answers were typed, and offers Restore and Discard', async () => {
    const user = userEvent.setup();
    const onRestore = vi.fn();
    const onDiscard = vi.fn();
    render(
      <DraftOfferBanner
        typedAt={new Date(2026, 2, 3, 14, 32).getTime()}
        onRestore={onRestore}
        onDiscard={onDiscard}
        now={now}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      `You have unsaved answers from 14:32 ${timeZoneLabel(new Date(2026, 2, 3, 14, 32))} on this computer.`,
    );
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(onRestore).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(onDiscard).toHaveBeenCalledOnce();
  });

  it('names the day too when they were typed before today, in the editor’s words', () => {
    render(
      <DraftOfferBanner
        typedAt={new Date(2026, 2, 1, 9, 0).getTime()}
        onRestore={() => {}}
        onDiscard={() => {}}
        offer={(when) => `You have an unsaved decision summary from ${when} on this computer.`}
        now={now}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      `You have an unsaved decision summary from 1 Mar 2026, 09:00 ${timeZoneLabel(new Date(2026, 2, 1, 9, 0))} on this computer.`,
    );
  });
});
