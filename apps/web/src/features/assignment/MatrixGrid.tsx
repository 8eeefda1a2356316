import type { MatrixResponse, MatrixRow } from '@merit/contract';
import { PREFERENCE_LABELS, type Preference } from '@merit/domain';
import BlockIcon from '@mui/icons-material/Block';
import CheckIcon from '@mui/icons-material/Check';
import LockIcon from '@mui/icons-material/Lock';
import { Box, Button, ButtonBase, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { assignmentTexts } from './assignment-texts';

export type MatrixMember = MatrixResponse['members'][number];
export type MatrixCell = MatrixRow['cells'][number];

const NAME_WIDTH = 280;
const CELL_WIDTH = 88;
const ROW_HEIGHT = 44;
const HEADER_HEIGHT = 60;
/** Rows from the end at which the next page is asked for, so it is there before it is needed. */
const LOAD_AHEAD = 40;

/** A short mark per bid, in the cell; the cell's label says it in words. */
const PREFERENCE_MARKS: Record<Preference, string> = {
  eager: 'E',
  willing: 'W',
  neutral: '',
  reluctant: 'R',
  not_me: '✕',
};
/** Each 4.5:1 or more on white (WCAG AA), as the theme's colours are chosen. */
const PREFERENCE_COLORS: Record<Preference, string> = {
  eager: 'success.main',
  willing: 'primary.main',
  neutral: 'text.secondary',
  reluctant: 'warning.main',
  not_me: 'error.main',
};

interface MatrixGridProps {
  label: string;
  rows: readonly MatrixRow[];
  members: readonly MatrixMember[];
  /** Rows in all (the server's count), of which `rows` are loaded. */
  total: number;
  hasMore: boolean;
  loadMore: () => void;
  onCell: (row: MatrixRow, member: MatrixMember, cell: MatrixCell | undefined) => void;
  onWanted: (row: MatrixRow) => void;
}

/** A cell's place: `col` -1 is the row's own header (its count of reviews). */
interface Place {
  row: number;
  col: number;
}

/**
 * Proposals as rows and members as columns, both virtualised: a 10,000 x 300 call draws
 * only the cells on screen. The proposal's name stays at the left and the members' loads
 * at the top. One cell at a time is in the Tab order (a roving tab index, as an ARIA grid
 * has it); the arrow keys, Home, End, Page Up and Page Down move between cells.
 */
export function MatrixGrid({
  label,
  rows,
  members,
  total,
  hasMore,
  loadMore,
  onCell,
  onWanted,
}: MatrixGridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState<Place>({ row: 0, col: 0 });
  /** Set by a key that moved the focus: the cell gets it once it is drawn. */
  const moving = useRef(false);

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualiser's own state drives its renders; nothing here memoises what it returns.
  const rowVirtualizer = useVirtualizer({
    count: rows.length + (hasMore ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const colVirtualizer = useVirtualizer({
    horizontal: true,
    count: members.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CELL_WIDTH,
    overscan: 3,
  });
  const virtualRows = rowVirtualizer.getVirtualItems();
  const virtualCols = colVirtualizer.getVirtualItems();

  // Each row's cells by member, looked up as each visible cell is drawn.
  const cellMaps = useMemo(
    () => rows.map((row) => new Map(row.cells.map((cell) => [cell.userId, cell]))),
    [rows],
  );

  const lastRow = virtualRows.at(-1)?.index ?? 0;
  useEffect(() => {
    if (hasMore && lastRow >= rows.length - LOAD_AHEAD) loadMore();
  }, [hasMore, lastRow, rows.length, loadMore]);

  // After a key moved the focus and the virtualiser drew the cell: focus it.
  useEffect(() => {
    if (!moving.current) return;
    const target = scroller.current?.querySelector<HTMLElement>(
      `[data-place="${focus.row}:${focus.col}"]`,
    );
    if (target) {
      moving.current = false;
      target.focus();
    }
  });

  const shown = (place: Place) =>
    virtualRows.some((item) => item.index === place.row) &&
    (place.col === -1 || virtualCols.some((item) => item.index === place.col));
  // The cell in the Tab order: the focused one, or the first drawn when it scrolled away.
  const tabStop: Place = shown(focus)
    ? focus
    : { row: virtualRows[0]?.index ?? 0, col: virtualCols[0]?.index ?? 0 };

  const onKeyDown = (event: KeyboardEvent) => {
    const pageRows = Math.max(
      1,
      Math.floor((scroller.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1,
    );
    const lastIndex = rows.length - 1;
    const moves: Record<string, () => Place> = {
      ArrowUp: () => ({ ...focus, row: focus.row - 1 }),
      ArrowDown: () => ({ ...focus, row: focus.row + 1 }),
      ArrowLeft: () => ({ ...focus, col: focus.col - 1 }),
      ArrowRight: () => ({ ...focus, col: focus.col + 1 }),
      PageUp: () => ({ ...focus, row: focus.row - pageRows }),
      PageDown: () => ({ ...focus, row: focus.row + pageRows }),
      Home: () => (event.ctrlKey ? { row: 0, col: -1 } : { ...focus, col: -1 }),
      End: () =>
        event.ctrlKey
          ? { row: lastIndex, col: members.length - 1 }
          : { ...focus, col: members.length - 1 },
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move();
    const place = {
      row: Math.min(Math.max(next.row, 0), Math.max(lastIndex, 0)),
      col: Math.min(Math.max(next.col, -1), members.length - 1),
    };
    moving.current = true;
    setFocus(place);
    rowVirtualizer.scrollToIndex(place.row);
    if (place.col >= 0) colVirtualizer.scrollToIndex(place.col);
  };

  const firstCol = virtualCols[0]?.start ?? 0;
  const width = NAME_WIDTH + colVirtualizer.getTotalSize();
  return (
    <Box
      ref={scroller}
      role="grid"
      aria-label={label}
      aria-rowcount={total + 1}
      aria-colcount={members.length + 1}
      onKeyDown={onKeyDown}
      sx={{
        overflow: 'auto',
        height: 'min(70vh, 760px)',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'background.paper',
      }}
    >
      <Box
        role="rowgroup"
        sx={{ width, height: HEADER_HEIGHT + rowVirtualizer.getTotalSize(), position: 'relative' }}
      >
        <Box
          role="row"
          aria-rowindex={1}
          sx={{
            position: 'sticky',
            top: 0,
            zIndex: 2,
            display: 'flex',
            width,
            height: HEADER_HEIGHT,
            bgcolor: 'background.paper',
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Box role="columnheader" aria-colindex={1} sx={{ ...stickyLeft, zIndex: 3, px: 1.5 }}>
            <Typography variant="subtitle2">Proposal</Typography>
          </Box>
          <Box aria-hidden sx={{ width: firstCol, flex: 'none' }} />
          {virtualCols.map((column) => {
            const member = members[column.index]!;
            return (
              <Box
                key={member.userId}
                role="columnheader"
                aria-colindex={column.index + 2}
                title={member.name}
                sx={{
                  width: CELL_WIDTH,
                  flex: 'none',
                  px: 0.5,
                  textAlign: 'center',
                  overflow: 'hidden',
                }}
              >
                <Typography variant="caption" component="div" noWrap sx={{ fontWeight: 500 }}>
                  {member.name}
                </Typography>
                <Typography
                  variant="caption"
                  component="div"
                  color={member.load > member.cap ? 'error' : 'text.secondary'}
                >
                  {`${member.load}/${member.cap}`}
                </Typography>
              </Box>
            );
          })}
        </Box>
        {virtualRows.map((item) => {
          const row = rows[item.index];
          const rowBox = {
            position: 'absolute',
            top: 0,
            left: 0,
            width,
            height: ROW_HEIGHT,
            transform: `translateY(${HEADER_HEIGHT + item.start}px)`,
            display: 'flex',
            borderBottom: 1,
            borderColor: 'divider',
          } as const;
          if (!row)
            return (
              <Box key="more" role="row" aria-rowindex={item.index + 2} sx={rowBox}>
                <Box role="gridcell" sx={{ ...stickyLeft, px: 1.5 }}>
                  <Typography variant="body2" color="text.secondary">
                    Loading more proposals…
                  </Typography>
                </Box>
              </Box>
            );
          const cells = cellMaps[item.index]!;
          const short = row.assigned < row.wanted;
          return (
            <Box key={row.proposalId} role="row" aria-rowindex={item.index + 2} sx={rowBox}>
              <Box role="rowheader" aria-colindex={1} sx={{ ...stickyLeft, px: 1.5, gap: 1 }}>
                <Typography variant="body2" noWrap title={row.name} sx={{ flex: 1, minWidth: 0 }}>
                  {row.name}
                </Typography>
                <Button
                  size="small"
                  color={short ? 'warning' : 'primary'}
                  data-place={`${item.index}:-1`}
                  tabIndex={tabStop.row === item.index && tabStop.col === -1 ? 0 : -1}
                  aria-label={`${row.assigned}/${row.wanted} reviews for ${row.name}`}
                  onFocus={() => setFocus({ row: item.index, col: -1 })}
                  onClick={() => onWanted(row)}
                  sx={{ minWidth: 0, flex: 'none' }}
                >
                  {`${row.assigned}/${row.wanted}`}
                </Button>
              </Box>
              <Box aria-hidden sx={{ width: firstCol, flex: 'none' }} />
              {virtualCols.map((column) => {
                const member = members[column.index]!;
                const cell = cells.get(member.userId);
                return (
                  <Box
                    key={member.userId}
                    role="gridcell"
                    aria-colindex={column.index + 2}
                    sx={{ width: CELL_WIDTH, flex: 'none', p: 0.5 }}
                  >
                    <CellButton
                      label={assignmentTexts.cellLabel(row.name, member.name, cell)}
                      cell={cell}
                      place={`${item.index}:${column.index}`}
                      tabbable={tabStop.row === item.index && tabStop.col === column.index}
                      onFocus={() => setFocus({ row: item.index, col: column.index })}
                      onClick={() => onCell(row, member, cell)}
                    />
                  </Box>
                );
              })}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

/** The proposal's column: kept at the left while the members scroll under it. */
const stickyLeft = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  width: NAME_WIDTH,
  flex: 'none',
  display: 'flex',
  alignItems: 'center',
  bgcolor: 'background.paper',
  borderRight: 1,
  borderColor: 'divider',
} as const;

interface CellButtonProps {
  label: string;
  cell: MatrixCell | undefined;
  place: string;
  tabbable: boolean;
  onFocus: () => void;
  onClick: () => void;
}

/**
 * One proposal and member: assigned (a tick, locked with a lock), their bid as a letter,
 * a conflict as a bar. A conflict's cell stays in reach of the keyboard (aria-disabled,
 * not disabled) so the arrow keys pass over it, but does nothing.
 */
function CellButton({ label, cell, place, tabbable, onFocus, onClick }: CellButtonProps) {
  const conflict = cell?.conflict === true;
  const preference = cell?.preference;
  return (
    <ButtonBase
      aria-label={label}
      title={label}
      aria-disabled={conflict || undefined}
      data-place={place}
      tabIndex={tabbable ? 0 : -1}
      onFocus={onFocus}
      onClick={conflict ? undefined : onClick}
      sx={{
        width: '100%',
        height: '100%',
        borderRadius: 1,
        gap: 0.25,
        typography: 'caption',
        fontWeight: 600,
        bgcolor: conflict
          ? 'action.disabledBackground'
          : cell?.assigned
            ? 'success.main'
            : 'transparent',
        color: cell?.assigned ? 'success.contrastText' : 'text.primary',
        cursor: conflict ? 'not-allowed' : 'pointer',
        '&:hover': { outline: conflict ? 'none' : '1px solid', outlineColor: 'primary.main' },
        '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'primary.main' },
      }}
    >
      {conflict && <BlockIcon fontSize="small" color="disabled" />}
      {cell?.assigned && <CheckIcon fontSize="small" />}
      {cell?.assigned && cell.locked && <LockIcon sx={{ fontSize: 14 }} />}
      {preference && preference !== 'neutral' && (
        <Box
          component="span"
          aria-hidden
          title={PREFERENCE_LABELS[preference]}
          sx={{ color: cell?.assigned ? 'inherit' : PREFERENCE_COLORS[preference] }}
        >
          {PREFERENCE_MARKS[preference]}
        </Box>
      )}
    </ButtonBase>
  );
}
