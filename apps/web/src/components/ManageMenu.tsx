import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Button, Menu, MenuItem } from '@mui/material';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';

/** One entry: a page to go to, or something to do here. */
export type ManageMenuItem = { label: string } & ({ to: string } | { onSelect: () => void });

/**
 * A page's Manage menu (spec section 2: the call's page, the proposal editor): a button
 * that opens the entries the caller may use. Callers list only what the server's
 * abilities allow (STYLE.md: the UI asks, never guesses); with nothing to offer there is
 * no button.
 */
export function ManageMenu({ items }: { items: readonly ManageMenuItem[] }) {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  if (items.length === 0) return null;
  return (
    <>
      <Button
        id={`${id}-button`}
        variant="contained"
        endIcon={<ArrowDropDownIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? `${id}-menu` : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Manage
      </Button>
      <Menu
        id={`${id}-menu`}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        slotProps={{ list: { 'aria-labelledby': `${id}-button` } }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {items.map((item) =>
          'to' in item ? (
            <MenuItem key={item.label} component={RouterLink} to={item.to} onClick={close}>
              {item.label}
            </MenuItem>
          ) : (
            <MenuItem
              key={item.label}
              onClick={() => {
                close();
                item.onSelect();
              }}
            >
              {item.label}
            </MenuItem>
          ),
        )}
      </Menu>
    </>
  );
}
