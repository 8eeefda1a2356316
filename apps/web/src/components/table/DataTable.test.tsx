import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderInRouter } from '../../test/render-in-router';
import { DataTable, type Column } from './DataTable';
import { useLocalTableState, useTableState, type ServerListQuery } from './use-table-state';

interface Row {
  id: number;
  name: string;
  count: number;
  opened: string | null;
}

const COLUMNS: readonly Column<Row>[] = [
  { key: 'name', header: 'Name', cell: (row) => row.name, sort: (row) => row.name },
  { key: 'count', header: 'Count', cell: (row) => row.count, sort: (row) => row.count },
  {
    key: 'opened',
    header: 'Opened',
    cell: (row) => row.opened ?? '—',
    sort: (row) => (row.opened === null ? null : new Date(row.opened)),
  },
  {
    key: 'view',
    header: 'View',
    action: true,
    cell: (row) => <button type="button">{`View ${row.name}`}</button>,
  },
];

/** `count` rows named Row 01, Row 02, … whose counts run the other way. */
function makeRows(count: number): Row[] {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `Row ${String(index + 1).padStart(2, '0')}`,
    count: count - index,
    opened: null,
  }));
}

function ClientList({
  rows,
  prefix,
  label = 'Things',
}: {
  rows: Row[];
  prefix?: string;
  label?: string;
}) {
  const table = useTableState(COLUMNS, { defaultSort: { key: 'name', direction: 'asc' }, prefix });
  return (
    <DataTable label={label} columns={COLUMNS} state={table} rows={rows} rowKey={(row) => row.id} />
  );
}

/** The first cell of each body row of the table named `label`. */
function names(label = 'Things') {
  return within(screen.getByRole('table', { name: label }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
}

const header = (name: string, label = 'Things') =>
  within(screen.getByRole('table', { name: label })).getByRole('columnheader', { name });

describe('DataTable', () => {
  it('sorts by a clicked column, numbers as numbers, and the other way on a second click', async () => {
    const rows = [
      { id: 1, name: 'Nine', count: 9, opened: null },
      { id: 2, name: 'Hundred', count: 100, opened: null },
      { id: 3, name: 'Ten', count: 10, opened: null },
    ];
    const app = renderInRouter(<ClientList rows={rows} />);
    const user = userEvent.setup();

    expect(names()).toEqual(['Hundred', 'Nine', 'Ten']);
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(app.location()).toBe('/');

    await user.click(within(header('Count')).getByRole('button', { name: 'Count' }));
    expect(names()).toEqual(['Nine', 'Ten', 'Hundred']);
    expect(header('Count')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Name')).not.toHaveAttribute('aria-sort');
    expect(app.location()).toBe('/?sort=count');

    await user.click(within(header('Count')).getByRole('button', { name: 'Count' }));
    expect(names()).toEqual(['Hundred', 'Ten', 'Nine']);
    expect(header('Count')).toHaveAttribute('aria-sort', 'descending');
    expect(app.location()).toBe('/?sort=-count');

    // A column of buttons does not sort.
    expect(within(header('View')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('sorts dates as instants and puts rows without one last, either way', async () => {
    const rows = [
      { id: 1, name: 'Never', count: 0, opened: null },
      { id: 2, name: 'Sydney midnight', count: 0, opened: '2026-01-01T10:00:00+10:00' },
      { id: 3, name: 'UTC one o’clock', count: 0, opened: '2026-01-01T01:00:00Z' },
    ];
    renderInRouter(<ClientList rows={rows} />, '/?sort=opened');
    expect(names()).toEqual(['Sydney midnight', 'UTC one o’clock', 'Never']);

    await userEvent.click(within(header('Opened')).getByRole('button', { name: 'Opened' }));
    expect(names()).toEqual(['UTC one o’clock', 'Sydney midnight', 'Never']);
  });

  it('pages 10 rows at a time, offers 25, 50 and 100, and keeps page and size in the address', async () => {
    const app = renderInRouter(<ClientList rows={makeRows(30)} />);
    const user = userEvent.setup();
    expect(names()).toHaveLength(10);
    expect(screen.getByText('1–10 of 30')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(names()[0]).toBe('Row 11');
    expect(app.location()).toBe('/?page=2');

    await user.click(screen.getByRole('combobox', { name: 'Rows per page:' }));
    const sizes = screen.getByRole('listbox');
    expect(
      within(sizes)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['10', '25', '50', '100']);
    await user.click(within(sizes).getByRole('option', { name: '25' }));
    // A new page size starts again from the first page.
    expect(app.location()).toBe('/?size=25');
    expect(names()).toHaveLength(25);
    expect(screen.getByText('1–25 of 30')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Rows per page:' }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: '10' }));
    expect(app.location()).toBe('/');
  });

  it('shows no pager while every row fits on the smallest page', () => {
    renderInRouter(<ClientList rows={makeRows(10)} />);
    expect(names()).toHaveLength(10);
    expect(screen.queryByRole('combobox', { name: 'Rows per page:' })).not.toBeInTheDocument();
  });

  it('opens at the sort, page and size of the address, and Back returns to them', async () => {
    const app = renderInRouter(<ClientList rows={makeRows(30)} />, '/?sort=-count&page=2&size=25');
    // Counts run 30 down to 1 as names run up, so count descending is name ascending.
    expect(names()).toEqual(['Row 26', 'Row 27', 'Row 28', 'Row 29', 'Row 30']);
    expect(header('Count')).toHaveAttribute('aria-sort', 'descending');

    await userEvent.click(within(header('Name')).getByRole('button', { name: 'Name' }));
    expect(app.location()).toBe('/?size=25');
    expect(names()[0]).toBe('Row 01');

    await act(() => app.router.navigate(-1));
    expect(app.location()).toBe('/?sort=-count&page=2&size=25');
    expect(names()[0]).toBe('Row 26');
  });

  it('reads what makes no sense in the address as the default', () => {
    renderInRouter(<ClientList rows={makeRows(30)} />, '/?sort=secret&page=0&size=7');
    expect(names()[0]).toBe('Row 01');
    expect(names()).toHaveLength(10);
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('shows the last page there is when the address asks for one past the end', () => {
    renderInRouter(<ClientList rows={makeRows(12)} />, '/?page=5');
    expect(names()).toEqual(['Row 11', 'Row 12']);
    expect(screen.getByText('11–12 of 12')).toBeInTheDocument();
  });

  it('keeps two tables of one page apart in the address by their prefixes', async () => {
    const app = renderInRouter(
      <>
        <ClientList rows={makeRows(3)} prefix="current" label="Current" />
        <ClientList rows={makeRows(3)} prefix="closed" label="Closed" />
      </>,
    );
    await userEvent.click(within(header('Count', 'Closed')).getByRole('button', { name: 'Count' }));
    expect(app.location()).toBe('/?closed.sort=count');
    expect(names('Closed')).toEqual(['Row 03', 'Row 02', 'Row 01']);
    expect(names('Current')).toEqual(['Row 01', 'Row 02', 'Row 03']);
  });

  it('shows each row as a card on a phone, with a sort choice instead of headers', async () => {
    // Only the phone layout's query is asked, so matching every query means a phone.
    vi.stubGlobal('matchMedia', (media: string) => ({
      matches: true,
      media,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }));
    const rows = [
      { id: 1, name: 'Nine', count: 9, opened: null },
      { id: 2, name: 'Ten', count: 10, opened: null },
    ];
    const app = renderInRouter(<ClientList rows={rows} />);

    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Things' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByText('Nine')).toBeInTheDocument();
    expect(first.getAllByRole('term').map((term) => term.textContent)).toEqual(['Count', 'Opened']);
    expect(first.getAllByRole('definition').map((value) => value.textContent)).toEqual(['9', '—']);
    expect(first.getByRole('button', { name: 'View Nine' })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(screen.getByRole('option', { name: 'Count, descending' }));
    expect(app.location()).toBe('/?sort=-count');
    const sortedCards = within(screen.getByRole('list', { name: 'Things' })).getAllByRole(
      'listitem',
    );
    expect(sortedCards[0]).toHaveTextContent('Ten');
  });
});

describe('DataTable with its state in the component (a list in a dialog)', () => {
  function LocalList({ rows }: { rows: Row[] }) {
    const table = useLocalTableState(COLUMNS, { defaultSort: { key: 'name', direction: 'asc' } });
    return (
      <DataTable
        label="Things"
        columns={COLUMNS}
        state={table}
        rows={rows}
        rowKey={(row) => row.id}
      />
    );
  }

  it('sorts and pages as in the address, but leaves the address alone', async () => {
    const app = renderInRouter(<LocalList rows={makeRows(30)} />, '/calls/12/?sort=name');
    const user = userEvent.setup();
    expect(names()).toHaveLength(10);
    expect(names()[0]).toBe('Row 01');

    await user.click(within(header('Count')).getByRole('button', { name: 'Count' }));
    expect(header('Count')).toHaveAttribute('aria-sort', 'ascending');
    expect(names()[0]).toBe('Row 30');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(names()[0]).toBe('Row 20');
    expect(screen.getByText('11–20 of 30')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Rows per page:' }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: '25' }));
    // A new page size starts again from the first page, as it does in the address.
    expect(names()).toHaveLength(25);
    expect(names()[0]).toBe('Row 30');

    await user.click(within(header('Count')).getByRole('button', { name: 'Count' }));
    expect(header('Count')).toHaveAttribute('aria-sort', 'descending');
    expect(names()[0]).toBe('Row 01');
    expect(app.location()).toBe('/calls/12/?sort=name');
  });
});

describe('DataTable in server mode', () => {
  const TOTAL = 10_000;
  const SERVER_COLUMNS: readonly Column<Row>[] = [
    { key: 'name', header: 'Name', cell: (row) => row.name, sort: 'server' },
    { key: 'count', header: 'Count', cell: (row) => row.count },
  ];

  /** The server's answer: ten rows, deliberately not in name order, and the total. */
  function serverPage({ page, pageSize }: ServerListQuery) {
    const first = (page - 1) * pageSize;
    const items = Array.from(
      { length: Math.max(0, Math.min(pageSize, TOTAL - first)) },
      (_, i) => ({
        id: first + i + 1,
        name: `Proposal ${first + pageSize - i}`,
        count: i,
        opened: null,
      }),
    );
    return { items, total: TOTAL };
  }

  function ServerList({ onQuery }: { onQuery: (query: ServerListQuery) => void }) {
    const table = useTableState(SERVER_COLUMNS, {
      defaultSort: { key: 'name', direction: 'asc' },
    });
    const { serverQuery } = table;
    useEffect(() => {
      onQuery(serverQuery);
    }, [onQuery, serverQuery]);
    return (
      <DataTable
        label="Proposals"
        columns={SERVER_COLUMNS}
        state={table}
        serverPage={serverPage(serverQuery)}
        rowKey={(row) => row.id}
      />
    );
  }

  it('shows the rows as the server sent them, counts its total and asks it for each page and sort', async () => {
    const queries: ServerListQuery[] = [];
    const onQuery = (query: ServerListQuery) => queries.push(query);
    const app = renderInRouter(<ServerList onQuery={onQuery} />, '/?page=2&q=beam');
    const user = userEvent.setup();

    expect(queries.at(-1)).toEqual({ page: 2, pageSize: 10, sort: 'name', q: 'beam' });
    expect(screen.getByText('11–20 of 10,000')).toBeInTheDocument();
    // Not sorted again here: the server's order stands.
    expect(names('Proposals')).toEqual(serverPage(queries.at(-1)!).items.map((row) => row.name));
    expect(names('Proposals')[0]).toBe('Proposal 20');

    await user.click(within(header('Name', 'Proposals')).getByRole('button', { name: 'Name' }));
    expect(app.location()).toBe('/?q=beam&sort=-name');
    expect(queries.at(-1)).toEqual({ page: 1, pageSize: 10, sort: '-name', q: 'beam' });

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(queries.at(-1)).toEqual({ page: 2, pageSize: 10, sort: '-name', q: 'beam' });

    await user.click(screen.getByRole('combobox', { name: 'Rows per page:' }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: '100' }));
    expect(queries.at(-1)).toEqual({ page: 1, pageSize: 100, sort: '-name', q: 'beam' });
    expect(names('Proposals')).toHaveLength(100);

    // Only the columns the server sorts by offer sorting.
    expect(within(header('Count', 'Proposals')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('asks for the last page when the address names one past the end', async () => {
    const queries: ServerListQuery[] = [];
    const app = renderInRouter(
      <ServerList onQuery={(query) => queries.push(query)} />,
      '/?page=5000',
    );
    await expect.poll(() => app.location()).toBe('/?page=1000');
    expect(queries.at(-1)).toMatchObject({ page: 1000 });
    expect(screen.getByText('9,991–10,000 of 10,000')).toBeInTheDocument();
  });
});
