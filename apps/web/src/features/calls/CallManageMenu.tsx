import type { CallDetail } from '@merit/contract';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Button, Menu, MenuItem } from '@mui/material';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';

interface CallManageMenuProps {
  call: CallDetail;
  onManageExtensions: () => void;
}

/**
 * The Manage menu of a call's page (spec section 2, Call detail). Each entry shows only
 * when the server's `abilities` allow it (STYLE.md: the UI asks, never guesses).
 */
export function CallManageMenu({ call, onManageExtensions }: CallManageMenuProps) {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const { abilities } = call;
  const links = [
    abilities.addProposal && { label: 'Add Proposal', to: `/calls/${call.id}/new` },
    { label: 'View Proposals', to: `/calls/${call.id}/proposals/` },
    abilities.edit && { label: 'Edit Call Details', to: `/calls/${call.id}/update` },
    abilities.manage && { label: 'Manage Call', to: `/calls/${call.id}/manage` },
  ].filter((link) => link !== false);

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
        {links.map((link) => (
          <MenuItem key={link.to} component={RouterLink} to={link.to} onClick={close}>
            {link.label}
          </MenuItem>
        ))}
        {abilities.manageExtensions && (
          <MenuItem
            onClick={() => {
              close();
              onManageExtensions();
            }}
          >
            Manage Extensions
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
