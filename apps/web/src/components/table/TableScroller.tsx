import { Paper, TableContainer, type SxProps, type Theme } from '@mui/material';
import { useCallback, useState, type ReactNode } from 'react';

/**
 * The outlined box of a plain table (not a DataTable), which scrolls sideways inside
 * itself when the table is wider than the screen, a phone's, instead of widening the page.
 * While it scrolls it is a region named as its table and a stop in the tab order, so a
 * keyboard can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function TableScroller({
  labelledBy,
  label,
  sx,
  children,
}: {
  /** The id of the heading that names the table, or `label`. */
  labelledBy?: string;
  label?: string;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  const [watch, sideways] = useSidewaysOverflow();
  const scrolling = sideways
    ? { tabIndex: 0, role: 'region', 'aria-labelledby': labelledBy, 'aria-label': label }
    : {};
  return (
    <TableContainer component={Paper} variant="outlined" ref={watch} sx={sx} {...scrolling}>
      {children}
    </TableContainer>
  );
}

/**
 * A callback for an element's `ref` (a table's container), and whether that element is
 * narrower than what it holds.
 */
export function useSidewaysOverflow() {
  const [overflowing, setOverflowing] = useState(false);
  const watch = useCallback((node: HTMLElement | null) => {
    // jsdom has no layout and no ResizeObserver; nothing overflows there.
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setOverflowing(node.scrollWidth > node.clientWidth));
    // The container narrows with the window; the table widens with longer rows.
    observer.observe(node);
    if (node.firstElementChild) observer.observe(node.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return [watch, overflowing] as const;
}
