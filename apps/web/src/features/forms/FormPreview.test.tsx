import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FormPreview } from './FormPreview';

const schema = {
  type: 'object' as const,
  required: ['title', 'hours'],
  properties: {
    title: { type: 'string' as const, title: 'Project title' },
    hours: { type: 'integer' as const, title: 'Hours' },
  },
};

describe('FormPreview', () => {
  it('words errors for people, and clears each as its answer is given', async () => {
    const user = userEvent.setup();
    render(<FormPreview schema={schema} uiSchema={{}} formData={undefined} />);
    // Nothing is wrong before the first check.
    expect(screen.queryByText(/is required/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getAllByText('Project title is required.')).not.toHaveLength(0);
    expect(screen.getAllByText('Hours is required.')).not.toHaveLength(0);
    expect(screen.queryByText(/must have required property/)).not.toBeInTheDocument();

    fireEvent.change(screen.getByRole('textbox', { name: /^Project title/ }), {
      target: { value: 'Dark matter survey' },
    });
    expect(screen.queryByText('Project title is required.')).not.toBeInTheDocument();
    // The answer still missing keeps its message.
    expect(screen.getAllByText('Hours is required.')).not.toHaveLength(0);
  });

  it('says the answers are valid once they are', async () => {
    const user = userEvent.setup();
    render(<FormPreview schema={schema} uiSchema={{}} formData={{ title: 'Survey', hours: 12 }} />);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('These answers are valid.');
    expect(within(screen.getByRole('alert')).getByRole('button', { name: 'Close' })).toBeVisible();
  });

  it('names each group of radio buttons by its question', async () => {
    const user = userEvent.setup();
    render(
      <FormPreview
        schema={{
          type: 'object',
          properties: {
            significance: { type: 'integer', title: 'Significance', enum: [1, 2, 3] },
            feasibility: { type: 'integer', title: 'Feasibility', enum: [1, 2, 3] },
          },
        }}
        uiSchema={{
          significance: { 'ui:widget': 'radio', 'ui:options': { inline: true } },
          feasibility: { 'ui:widget': 'radio' },
        }}
        formData={undefined}
      />,
    );
    const significance = screen.getByRole('radiogroup', { name: 'Significance' });
    await user.click(within(significance).getByRole('radio', { name: '2' }));
    expect(within(significance).getByRole('radio', { name: '2' })).toBeChecked();
    expect(
      within(screen.getByRole('radiogroup', { name: 'Feasibility' })).getByRole('radio', {
        name: '2',
      }),
    ).not.toBeChecked();
  });

  it('shows a word-limited textarea as authors will see it, counting and keeping to the limit', () => {
    render(
      <FormPreview
        schema={{
          type: 'object',
          properties: { summary: { type: 'string', title: 'Summary' } },
        }}
        uiSchema={{ summary: { 'ui:widget': 'textarea', 'ui:options': { maxWords: 3 } } }}
        formData={undefined}
      />,
    );
    const summary = screen.getByRole('textbox', { name: 'Summary' });
    expect(screen.getByText('0 / 3 words')).toBeInTheDocument();
    fireEvent.change(summary, { target: { value: 'one two three four five' } });
    // Cut where the fourth word starts: what follows the third word is kept as typed.
    expect(summary).toHaveValue('one two three ');
    expect(screen.getByText('3 / 3 words')).toBeInTheDocument();
  });
});
