import {
  Box,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  TextField,
  Typography,
  useMediaQuery,
  type SxProps,
  type Theme,
} from '@mui/material';
import { Fragment, useEffect, type ReactNode } from 'react';
import { sortRows, type SortValue } from './sort-rows';
import { useSidewaysOverflow } from './TableScroller';
import { decodeSort, encodeSort, PAGE_SIZES, type TableState } from './use-table-state';

/** Row counts as the reader writes numbers: 10,000 rather than 10000. */
const counting = new Intl.NumberFormat();

export interface Column<T> {
  /** Names the column in the address (`sort=`) and, in server mode, to the server. */
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /**
   * What the column sorts by: a value per row (see SortValue), or `'server'` when the
   * server sorts a server-paged list by `key`. Without it the column does not sort.
   */
  sort?: ((row: T) => SortValue) | 'server';
  /**
   * A column of buttons (View, Edit, Delete): right-aligned in the table, and on a phone
   * shown under the row's other fields without a header. The table's last column, when
   * it is one, stays in view while a wide table scrolls sideways: give a wide table's
   * buttons one column.
   */
  action?: boolean;
  /** Styles of the column's cells, e.g. a monospace name. */
  cellSx?: SxProps<Theme>;
  /**
   * Kept at the table's left edge while a wide table scrolls sideways, the columns before
   * it passing under it: the row's name, so a row is known whichever columns are in view.
   */
  sticky?: boolean;
}

interface BaseProps<T> {
  /** Names the table (or the list of cards on a phone) for screen readers… */
  label?: string;
  /** …or the id of the heading that names it. */
  labelledBy?: string;
  columns: readonly Column<T>[];
  state: TableState;
  rowKey: (row: T) => string | number;
}

interface ClientProps<T> extends BaseProps<T> {
  /** Every row (already searched): sorted and paged here. */
  rows: readonly T[];
  serverPage?: never;
}

interface ServerProps<T> extends BaseProps<T> {
  rows?: never;
  /** One page of rows as the server sorted and paged them, and how many there are in all. */
  serverPage: { items: readonly T[]; total: number };
}

export type DataTableProps<T> = ClientProps<T> | ServerProps<T>;

/**
 * Every list of the app: sortable columns, a choice of page size, and the search, sort
 * and page in the address (useTableState), or, for a list in a dialog, in the component
 * (useLocalTableState). Below the `sm` breakpoint each row becomes a
 * card, so a phone never scrolls sideways to reach a row's actions.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, state, rowKey } = props;
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [watchWidth, sideways] = useSidewaysOverflow();

  const count = props.serverPage ? props.serverPage.total : props.rows.length;
  const lastPage = Math.max(0, Math.ceil(count / state.pageSize) - 1);
  // Rows deleted or a search narrowed: show the last page there is rather than none.
  const page = Math.min(state.page, lastPage);
  const serverPageGone = props.serverPage !== undefined && state.page > lastPage;
  useEffect(() => {
    // The server paged for the address, so the address has to change to the page shown.
    if (serverPageGone) state.setPage(lastPage, { replace: true });
  }, [serverPageGone, lastPage, state]);

  let rows: readonly T[];
  if (props.serverPage) {
    rows = props.serverPage.items;
  } else {
    const sortBy = columns.find((column) => column.key === state.sort.key)?.sort;
    const sorted =
      typeof sortBy === 'function'
        ? sortRows(props.rows, sortBy, state.sort.direction)
        : props.rows;
    rows = sorted.slice(page * state.pageSize, (page + 1) * state.pageSize);
  }

  const name = { 'aria-label': props.label, 'aria-labelledby': props.labelledBy };
  const last = columns.at(-1);
  const stuck = last?.action ? last : undefined;
  const pagination = count > PAGE_SIZES[0] && (
    <TablePagination
      component="div"
      count={count}
      page={page}
      rowsPerPage={state.pageSize}
      rowsPerPageOptions={[...PAGE_SIZES]}
      onPageChange={(_event, next) => state.setPage(next)}
      onRowsPerPageChange={(event) => state.setPageSize(Number(event.target.value))}
      labelDisplayedRows={({ from, to, count: total }) =>
        `${counting.format(from)}–${counting.format(to)} of ${counting.format(total)}`
      }
      // On a phone the toolbar's parts wrap instead of pushing the page wider.
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end' } }}
    />
  );

  if (phone) {
    return (
      <>
        <SortChoice columns={columns} state={state} />
        {/* role="list": Safari drops a list's meaning once its bullets are gone. */}
        <Stack
          component="ul"
          role="list"
          spacing={1.5}
          sx={{ listStyle: 'none', m: 0, p: 0 }}
          {...name}
        >
          {rows.map((row) => (
            <RowCard key={rowKey(row)} row={row} columns={columns} />
          ))}
        </Stack>
        {pagination}
      </>
    );
  }

  return (
    <Paper variant="outlined">
      <TableContainer ref={watchWidth} data-scrolls-sideways={sideways || undefined}>
        <Table size="small" {...name}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <HeaderCell
                  key={column.key}
                  column={column}
                  state={state}
                  sx={column === stuck ? stuckSx : column.sticky ? stuckStartSx : undefined}
                />
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={rowKey(row)} hover>
                {columns.map((column) => (
                  <TableCell
                    key={column.key}
                    align={column.action ? 'right' : undefined}
                    sx={[
                      ...asArray(column.cellSx),
                      ...asArray(column === stuck ? stuckSx : undefined),
                      ...asArray(column.sticky ? stuckStartSx : undefined),
                    ]}
                  >
                    {column.cell(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {pagination}
    </Paper>
  );
}

/**
 * The last column of buttons, kept at the table's right edge while the rest scrolls under
 * it: the call list is wider than the page beside the side menu, and its actions must not
 * be out of sight. While the table scrolls, a line on its left says that something lies
 * beneath.
 */
const stuckSx: SxProps<Theme> = (theme) => ({
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  whiteSpace: 'nowrap',
  '[data-scrolls-sideways] &': { boxShadow: `inset 1px 0 0 ${theme.palette.divider}` },
  // The row's hover tint, which the opaque background would otherwise hide.
  '.MuiTableRow-hover:hover > &': {
    backgroundImage: `linear-gradient(${theme.palette.action.hover}, ${theme.palette.action.hover})`,
  },
});

/** A `sticky` column, kept at the left edge as `stuckSx` keeps the buttons at the right. */
const stuckStartSx: SxProps<Theme> = (theme) => ({
  position: 'sticky',
  left: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  '[data-scrolls-sideways] &': { boxShadow: `inset -1px 0 0 ${theme.palette.divider}` },
  '.MuiTableRow-hover:hover > &': {
    backgroundImage: `linear-gradient(${theme.palette.action.hover}, ${theme.palette.action.hover})`,
  },
});

function HeaderCell<T>({
  column,
  state,
  sx,
}: {
  column: Column<T>;
  state: TableState;
  sx?: SxProps<Theme>;
}) {
  const sorted = state.sort.key === column.key;
  return (
    <TableCell
      align={column.action ? 'right' : undefined}
      // Sets aria-sort, so a screen reader says which column sorts the rows, and how.
      sortDirection={sorted ? state.sort.direction : false}
      sx={sx}
    >
      {column.sort ? (
        <TableSortLabel
          active={sorted}
          direction={sorted ? state.sort.direction : 'asc'}
          onClick={() => state.toggleSort(column.key)}
        >
          {column.header}
        </TableSortLabel>
      ) : (
        column.header
      )}
    </TableCell>
  );
}

/** A row on a phone: its first column as the title, the others labelled, then the actions. */
function RowCard<T>({ row, columns }: { row: T; columns: readonly Column<T>[] }) {
  const [title, ...fields] = columns.filter((column) => !column.action);
  const actions = columns.filter((column) => column.action);
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2 }}>
      {title && (
        <Box sx={{ fontWeight: 500, mb: 1, overflowWrap: 'anywhere' }}>{title.cell(row)}</Box>
      )}
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: 'minmax(6rem, auto) 1fr',
          columnGap: 2,
          rowGap: 0.5,
          m: 0,
        }}
      >
        {fields.map((column) => (
          <Fragment key={column.key}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {column.header}
            </Typography>
            <Box
              component="dd"
              sx={[{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }, ...asArray(column.cellSx)]}
            >
              {column.cell(row)}
            </Box>
          </Fragment>
        ))}
      </Box>
      {actions.length > 0 && (
        <Stack direction="row" sx={{ mt: 1.5, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          {actions.map((column) => (
            <Fragment key={column.key}>{column.cell(row)}</Fragment>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function asArray(sx: SxProps<Theme> | undefined) {
  if (sx === undefined) return [];
  return Array.isArray(sx) ? sx : [sx];
}

/** On a phone there are no column headers to click: one choice of column and direction. */
function SortChoice<T>({ columns, state }: { columns: readonly Column<T>[]; state: TableState }) {
  const sortable = columns.filter((column) => column.sort);
  if (sortable.length === 0) return null;
  return (
    <TextField
      select
      size="small"
      label="Sort by"
      value={encodeSort(state.sort)}
      onChange={(event) => state.setSort(decodeSort(event.target.value))}
      sx={{ mb: 1.5, minWidth: 220 }}
    >
      {sortable.flatMap((column) => [
        <MenuItem key={column.key} value={encodeSort({ key: column.key, direction: 'asc' })}>
          {column.header}, ascending
        </MenuItem>,
        <MenuItem key={`-${column.key}`} value={encodeSort({ key: column.key, direction: 'desc' })}>
          {column.header}, descending
        </MenuItem>,
      ])}
    </TextField>
  );
}
