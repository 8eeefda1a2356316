import { Box } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { SearchField } from '../../components/SearchField';
import { Section } from '../../components/Section';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useTableState } from '../../components/table/use-table-state';

/** The latest work first: what a person returns to the dashboard for. */
const BY_LAST_MODIFIED = { key: 'lastModified', direction: 'desc' } as const;

/**
 * One of the dashboard's own lists (My Proposals, My Reviews): a section with a search
 * box once there are rows, loading and failure views, an empty state that says what to
 * do, and the shared table sorted by last change, its state in the address under `prefix`.
 */
export function DashboardTable<T>({
  id,
  title,
  noun,
  query,
  columns,
  rowKey,
  searchText,
  empty,
  emptyView,
}: {
  id: string;
  title: string;
  /** What a row is, for the labels: `proposal`, `review`. */
  noun: string;
  query: UseQueryResult<T[]>;
  columns: readonly Column<T>[];
  rowKey: (row: T) => number;
  /** The texts the search box looks in. */
  searchText: (row: T) => readonly (string | null | undefined)[];
  /** What to say, and where to go, while there are no rows at all. */
  empty?: ReactNode;
  /** Shown as it is, instead of `empty` in the usual box, while there are no rows. */
  emptyView?: ReactNode;
}) {
  const table = useTableState(columns, { defaultSort: BY_LAST_MODIFIED, prefix: `${noun}s` });
  const shown = searchRows(query.data ?? [], table.q, searchText);

  let content;
  if (query.isPending) {
    content = <LoadingView label={`Loading your ${noun}s…`} />;
  } else if (query.isError) {
    content = <LoadFailedView error={query.error} onRetry={() => void query.refetch()} />;
  } else if (query.data.length === 0) {
    content = emptyView ?? <EmptyState>{empty}</EmptyState>;
  } else if (shown.length === 0) {
    content = <EmptyState>{`No ${noun} matches “${table.q.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <DataTable labelledBy={id} columns={columns} state={table} rows={shown} rowKey={rowKey} />
    );
  }

  return (
    <Section
      id={id}
      title={title}
      actions={
        (query.data?.length ?? 0) > 0 && (
          <Box>
            <SearchField label={`Search my ${noun}s`} value={table.q} onChange={table.setQuery} />
          </Box>
        )
      }
    >
      {content}
    </Section>
  );
}
