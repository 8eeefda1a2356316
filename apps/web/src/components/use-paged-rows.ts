import { useState } from 'react';

/** Rows per page of every list; spec section 9: the page size is not shown. */
export const PAGE_SIZE = 10;

/**
 * Client-side pagination of a list that is already loaded. The page falls back to the
 * last one that exists when the list shrinks (a search, a deletion), so a table never
 * shows an empty page while rows remain.
 */
export function usePagedRows<T>(rows: readonly T[]) {
  const [requestedPage, setPage] = useState(0);
  const lastPage = Math.max(0, Math.ceil(rows.length / PAGE_SIZE) - 1);
  const page = Math.min(requestedPage, lastPage);
  return {
    rows: rows.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE),
    /** Spread onto MUI's TablePagination. */
    pagination: {
      component: 'div' as const,
      count: rows.length,
      page,
      rowsPerPage: PAGE_SIZE,
      rowsPerPageOptions: [] as number[],
      onPageChange: (_event: unknown, next: number) => setPage(next),
    },
    /** True when there is more than one page, so the pager is worth showing. */
    paged: rows.length > PAGE_SIZE,
    resetPage: () => setPage(0),
  };
}
