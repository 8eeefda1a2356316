import type { RankingRowBody } from '@merit/contract';
import { useRef, type DragEvent } from 'react';

/** Which edge of the row under the pointer the drop indicator is drawn on. */
export type DropSide = 'above' | 'below';

/** The attribute a ranking row carries: its index in the ranking as shown. */
export const RANK_INDEX_ATTRIBUTE = 'data-rank-index';
/** The attribute on the row a drop would land by: its value is a DropSide. */
export const DROP_ATTRIBUTE = 'data-drop';

/** A drop: the proposal dragged, and the one it goes below (null: to the top). */
export interface RankingDrop {
  row: RankingRowBody;
  after: number | null;
}

/**
 * Where the proposal at `from` goes when dropped on the row at `to`: it takes that row's
 * place, so below it when it comes from above and above it when it comes from below.
 * Null on itself, where a drop changes nothing.
 */
export function dropPlace(
  rows: readonly RankingRowBody[],
  from: number,
  to: number,
): { side: DropSide; after: number | null } | null {
  if (from === to || !rows[to]) return null;
  if (to > from) return { side: 'below', after: rows[to].proposalId };
  return { side: 'above', after: to === 0 ? null : (rows[to - 1]?.proposalId ?? null) };
}

const rowIndexOf = (target: EventTarget | null): { element: HTMLElement; index: number } | null => {
  const element =
    target instanceof Element ? target.closest<HTMLElement>(`tr[${RANK_INDEX_ATTRIBUTE}]`) : null;
  return element ? { element, index: Number(element.getAttribute(RANK_INDEX_ATTRIBUTE)) } : null;
};

/** What a row's drag handle takes: see `useRankingDrag`. */
export type DragHandleProps = ReturnType<ReturnType<typeof useRankingDrag>['handleProps']>;

/**
 * Dragging a proposal to another place in the ranking (native HTML5 drag and drop): a
 * row's handle starts it, the table body listens for the rest, and a drop hands the
 * place to `onDrop`, which asks for the reason. Dragover fires many times a second over
 * a page of up to 100 rows: the dragged row and the marked target live in refs and the
 * indicator is an attribute on one row, so nothing re-renders until the drop.
 */
export function useRankingDrag(
  rows: readonly RankingRowBody[],
  onDrop: (drop: RankingDrop) => void,
) {
  const dragged = useRef<{ proposalId: number; index: number } | null>(null);
  const marked = useRef<HTMLElement | null>(null);

  const mark = (element: HTMLElement | null, side: DropSide | null) => {
    if (marked.current && marked.current !== element)
      marked.current.removeAttribute(DROP_ATTRIBUTE);
    if (element && side) element.setAttribute(DROP_ATTRIBUTE, side);
    else element?.removeAttribute(DROP_ATTRIBUTE);
    marked.current = element;
  };

  // The ranking may be fetched again during a drag: find the row again if it moved.
  const draggedIndex = () => {
    const from = dragged.current;
    if (!from) return null;
    if (rows[from.index]?.proposalId === from.proposalId) return from.index;
    const index = rows.findIndex((row) => row.proposalId === from.proposalId);
    return index < 0 ? null : index;
  };

  const placeFor = (event: DragEvent<HTMLElement>) => {
    const from = draggedIndex();
    const target = rowIndexOf(event.target);
    if (from === null || !target) return null;
    const place = dropPlace(rows, from, target.index);
    return place && { ...place, from, element: target.element };
  };

  const end = () => {
    dragged.current = null;
    mark(null, null);
  };

  return {
    /** On a row's drag handle: the row's index in `rows`. */
    handleProps: (index: number) => ({
      draggable: true,
      onDragStart: (event: DragEvent<HTMLElement>) => {
        const row = rows[index];
        if (!row) return;
        dragged.current = { proposalId: row.proposalId, index };
        event.dataTransfer.effectAllowed = 'move';
        // Firefox starts no drag without data.
        event.dataTransfer.setData('text/plain', row.name);
        // The whole row follows the pointer, not only the handle.
        const tableRow = event.currentTarget.closest('tr');
        if (tableRow) event.dataTransfer.setDragImage(tableRow, 16, 16);
      },
      onDragEnd: end,
    }),
    /** On the table body: where a row may land, and the drop. */
    bodyProps: {
      onDragOver: (event: DragEvent<HTMLElement>) => {
        const place = placeFor(event);
        if (!place) {
          // Over itself, a line, or a drag from elsewhere: no drop here.
          mark(null, null);
          return;
        }
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        mark(place.element, place.side);
      },
      onDragLeave: (event: DragEvent<HTMLElement>) => {
        if (!(
          event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)
        ))
          mark(null, null);
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        const place = placeFor(event);
        end();
        if (!place) return;
        event.preventDefault();
        onDrop({ row: rows[place.from]!, after: place.after });
      },
    },
  };
}
