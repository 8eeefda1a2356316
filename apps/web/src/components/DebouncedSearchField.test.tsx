import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DebouncedSearchField } from './DebouncedSearchField';

function Page({ onSearch }: { onSearch: (value: string) => void }) {
  const [search, setSearch] = useState('');
  return (
    <>
      <DebouncedSearchField
        label="Search things"
        value={search}
        onChange={(value) => {
          onSearch(value);
          setSearch(value);
        }}
        delayMs={200}
      />
      <p>Searching for: {search}</p>
      <button type="button" onClick={() => setSearch('other')}>
        Back
      </button>
    </>
  );
}

describe('DebouncedSearchField', () => {
  it('shows each letter at once and reports the text once typing pauses', async () => {
    const onSearch = vi.fn();
    render(<Page onSearch={onSearch} />);
    const field = screen.getByRole('searchbox', { name: 'Search things' });

    await userEvent.type(field, 'abc');

    expect(field).toHaveValue('abc');
    expect(onSearch).not.toHaveBeenCalled();
    expect(await screen.findByText('Searching for: abc')).toBeInTheDocument();
    expect(onSearch.mock.calls).toEqual([['abc']]);
  });

  it('shows a search set from elsewhere instead of what it held', async () => {
    render(<Page onSearch={() => {}} />);
    const field = screen.getByRole('searchbox', { name: 'Search things' });
    await userEvent.type(field, 'abc');
    await screen.findByText('Searching for: abc');

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));

    expect(field).toHaveValue('other');
  });
});
