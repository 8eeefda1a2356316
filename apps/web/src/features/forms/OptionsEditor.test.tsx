import type { FormOptions, FormType } from '@merit/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { OptionsEditor } from './OptionsEditor';

const schema = {
  type: 'object',
  properties: {
    merit: { type: 'integer', title: 'Merit' },
    feasibility: { type: ['number', 'null'], title: 'Feasibility' },
    comment: { type: 'string', title: 'Comment' },
    facility: { type: 'string', enum: ['ANSTO', 'Synchrotron'] },
    flags: { type: ['string', 'number'] },
    hours: { type: 'number' },
  },
};

function renderEditor(type: FormType, options: FormOptions) {
  const onChange = vi.fn();
  render(
    <OptionsEditor type={type} options={options} schema={schema} onChange={onChange} errors={{}} />,
  );
  return onChange;
}

const checkboxNames = (group: string) =>
  within(screen.getByRole('group', { name: group }))
    .getAllByRole('checkbox')
    .map((box) => box.closest('label')!.textContent);

describe('OptionsEditor', () => {
  it('offers only the numeric fields as score fields', () => {
    renderEditor(3, { method: 'average', fields: [] });
    expect(checkboxNames('Score fields')).toEqual([
      'Merit (merit)',
      'Feasibility (feasibility)',
      'hours',
    ]);
  });

  it('adds a chosen field in the order of the schema', async () => {
    const onChange = renderEditor(3, { method: 'total', fields: ['hours'] });
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Merit (merit)' }));
    expect(onChange).toHaveBeenCalledWith({ method: 'total', fields: ['merit', 'hours'] });
  });

  it('offers any field as the facility and only numeric ones as data fields', async () => {
    const onChange = renderEditor(4, { institution_field: null, data_fields: [] });
    expect(checkboxNames('Data fields')).toEqual([
      'Merit (merit)',
      'Feasibility (feasibility)',
      'hours',
    ]);
    const facility = screen.getByLabelText('Facility field');
    expect(
      within(facility)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'None (one unnamed facility)',
      'Merit (merit)',
      'Feasibility (feasibility)',
      'Comment (comment)',
      'facility',
      'flags',
      'hours',
    ]);
    await userEvent.setup().selectOptions(facility, 'facility');
    expect(onChange).toHaveBeenCalledWith({ institution_field: 'facility', data_fields: [] });
  });

  it('keeps a chosen field the schema lost visible, so it can be removed', () => {
    renderEditor(5, { institution_field: null, data_fields: ['comment'] });
    expect(
      screen.getByRole('checkbox', { name: 'comment (not a numeric field of the schema)' }),
    ).toBeChecked();
  });
});
