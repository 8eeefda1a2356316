import { Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TableScroller } from './TableScroller';

/*
 * jsdom lays nothing out: the container's widths and the ResizeObserver that reports them
 * are given here, as a browser would give them on a phone (the table wider than its box)
 * or at desktop size (the table fits).
 */
let resized: (() => void) | undefined;

function layOut(container: number, table: number) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(container);
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(table);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        resized = callback;
      }
      observe() {
        resized?.();
      }
      disconnect() {}
    },
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  resized = undefined;
});

function Capacities() {
  return (
    <>
      <Typography id="capacity-heading">Capacities</Typography>
      <TableScroller labelledBy="capacity-heading">
        <Table aria-labelledby="capacity-heading">
          <TableBody>
            <TableRow>
              <TableCell>HPC Cluster</TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </TableScroller>
    </>
  );
}

describe('TableScroller', () => {
  it('is a named region in the tab order while its table is wider than it', () => {
    layOut(358, 720);
    render(<Capacities />);
    const region = screen.getByRole('region', { name: 'Capacities' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toContainElement(screen.getByRole('table', { name: 'Capacities' }));
  });

  it('is neither a region nor a tab stop while its table fits', () => {
    layOut(900, 720);
    render(<Capacities />);
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.getByRole('table', { name: 'Capacities' }).parentElement).not.toHaveAttribute(
      'tabindex',
    );
  });

  it('becomes one when the window narrows', () => {
    layOut(900, 720);
    render(<Capacities />);
    expect(screen.queryByRole('region')).toBeNull();
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(358);
    act(() => resized?.());
    expect(screen.getByRole('region', { name: 'Capacities' })).toHaveAttribute('tabindex', '0');
  });
});
