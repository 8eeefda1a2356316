import { callMessages } from '@merit/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { sentBody, stubApi } from '../../../test/render-app';
import { renderInRouter } from '../../../test/render-in-router';
import { makeProposal, readerAbilities } from '../proposals.fixtures';
import { DECISION_EMPTY, DECISION_SAVED, DecisionSummaryPanel } from './DecisionSummaryPanel';

// ProseMirror needs layout jsdom lacks; the panel's logic does not depend on the editor.
vi.mock('../../calls/RichTextEditor', () => ({
  default: ({
    label,
    value,
    onChange,
    error,
  }: {
    label: string;
    value: string;
    onChange: (html: string) => void;
    error?: string;
  }) => (
    <>
      <textarea
        aria-label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && <p role="alert">{error}</p>}
    </>
  ),
}));

const chairAbilities = { ...readerAbilities, viewDecision: true, editDecision: true };
const authorAfterClose = { ...readerAbilities, viewDecision: true };

describe('DecisionSummaryPanel', () => {
  it('lets a chair write the summary and Save it', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'POST /update_decision_summary/': {
        body: makeProposal({ abilities: chairAbilities, decisionSummary: '<p>Accepted</p>' }),
      },
    });
    renderInRouter(
      <DecisionSummaryPanel
        proposal={makeProposal({ abilities: chairAbilities, decisionSummary: null })}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Decision Summary' })).toBeVisible();
    expect(screen.getByText(DECISION_EMPTY)).toBeVisible();
    await user.type(await screen.findByRole('textbox', { name: 'Decision summary' }), 'Accepted');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(DECISION_SAVED)).toBeVisible();
    expect(sentBody(fetchStub, 'POST /update_decision_summary/')).toEqual({
      proposalId: 30,
      summary: 'Accepted',
    });
  });

  it('shows the server’s image message under the editor', async () => {
    const user = userEvent.setup();
    stubApi({
      'POST /update_decision_summary/': {
        status: 400,
        body: {
          detail: 'The request is not valid.',
          code: 'invalid',
          fields: { summary: [callMessages.imageTooLarge] },
        },
      },
    });
    renderInRouter(
      <DecisionSummaryPanel
        proposal={makeProposal({ abilities: chairAbilities, decisionSummary: '<p>x</p>' })}
      />,
    );
    await screen.findByRole('textbox', { name: 'Decision summary' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The image cannot be larger than 500KB.',
    );
  });

  it('shows the summary read-only to those who may read it', () => {
    renderInRouter(
      <DecisionSummaryPanel
        proposal={makeProposal({
          abilities: authorAfterClose,
          decisionSummary: '<p>Accepted with <strong>3 nights</strong></p>',
        })}
      />,
    );
    expect(screen.getByText('3 nights')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('says when there is none yet, read-only', () => {
    renderInRouter(
      <DecisionSummaryPanel
        proposal={makeProposal({ abilities: authorAfterClose, decisionSummary: null })}
      />,
    );
    expect(screen.getByText(DECISION_EMPTY)).toBeVisible();
  });

  it('is not there for those the server does not let read it', () => {
    renderInRouter(<DecisionSummaryPanel proposal={makeProposal()} />);
    expect(screen.queryByRole('heading', { name: 'Decision Summary' })).not.toBeInTheDocument();
  });
});
