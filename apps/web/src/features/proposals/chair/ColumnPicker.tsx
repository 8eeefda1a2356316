import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { Button, Checkbox, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useCallback, useId, useState } from 'react';

/** A column the picker offers: its key, its header, and whether it may be hidden at all. */
export interface PickableColumn {
  key: string;
  header: string;
  /** Always shown (the proposal's name): listed, checked, and not to be unchecked. */
  locked?: boolean;
}

/**
 * Columns: a menu of a table's columns, each a checkbox a person ticks to show it. A
 * menu of `menuitemcheckbox`es, so a screen reader says each is checked or not; arrow
 * keys move through it, Enter or Space ticks, Escape closes it.
 */
export function ColumnPicker({
  columns,
  isShown,
  onToggle,
}: {
  columns: readonly PickableColumn[];
  isShown: (key: string) => boolean;
  onToggle: (key: string, shown: boolean) => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const shownCount = columns.filter((column) => isShown(column.key)).length;
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ViewColumnIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ whiteSpace: 'nowrap' }}
      >
        {`Columns (${shownCount} of ${columns.length})`}
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-label': 'Columns to show' }, paper: { sx: { maxHeight: 420 } } }}
      >
        {columns.map((column) => {
          const shown = column.locked === true || isShown(column.key);
          return (
            <MenuItem
              key={column.key}
              role="menuitemcheckbox"
              aria-checked={shown}
              aria-disabled={column.locked || undefined}
              // Stays open: a person picks several columns in turn.
              onClick={() => {
                if (!column.locked) onToggle(column.key, !shown);
              }}
              dense
            >
              <ListItemIcon>
                <Checkbox
                  edge="start"
                  checked={shown}
                  disabled={column.locked}
                  tabIndex={-1}
                  disableRipple
                  size="small"
                  // The menu item is the control; the box only shows its state.
                  slotProps={{ input: { 'aria-hidden': true } }}
                />
              </ListItemIcon>
              <ListItemText>{column.header}</ListItemText>
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}

/** Where a call's choice of columns is kept: this browser, per call. */
export const shownColumnsKey = (callId: number) => `merit.callProposals.columns.${callId}`;

/** The choices a person made, by column key; a column they never ticked follows `defaults`. */
type Choices = Record<string, boolean>;

function readChoices(key: string): Choices {
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(key) ?? '{}');
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
    return Object.fromEntries(
      Object.entries(stored).filter(
        (entry): entry is [string, boolean] => typeof entry[1] === 'boolean',
      ),
    );
  } catch {
    // Storage refused, or not JSON: the defaults.
    return {};
  }
}

/**
 * The columns a person chose for a call's list, remembered in this browser per call:
 * `choice` is their choice of a column, undefined for one they never chose (a facility new
 * to the call), which shows or not as the page's defaults say.
 */
export function useShownColumns(callId: number) {
  const storageKey = shownColumnsKey(callId);
  const [choices, setChoices] = useState<{ key: string; choices: Choices }>(() => ({
    key: storageKey,
    choices: readChoices(storageKey),
  }));
  // Another call's list: its own choices.
  const current = choices.key === storageKey ? choices.choices : readChoices(storageKey);
  if (choices.key !== storageKey) setChoices({ key: storageKey, choices: current });
  const choice = (key: string): boolean | undefined => current[key];
  const toggle = useCallback(
    (key: string, shown: boolean) =>
      setChoices((previous) => {
        const next = { ...previous.choices, [key]: shown };
        try {
          window.localStorage.setItem(storageKey, JSON.stringify(next));
        } catch {
          // Storage refused: the choice lasts while the page is open.
        }
        return { key: storageKey, choices: next };
      }),
    [storageKey],
  );
  return { choice, toggle };
}
