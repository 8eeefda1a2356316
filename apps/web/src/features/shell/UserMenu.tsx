import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Button, Divider, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '../auth/session-hooks';
import { useLogout } from '../auth/use-logout';

/** The top bar's user menu (spec section 2): My Account, Change Password, Logout. */
export function UserMenu() {
  const user = useCurrentUser();
  const { logout, isPending } = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = anchor !== null;
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        id="user-menu-button"
        color="inherit"
        aria-haspopup="menu"
        aria-controls={open ? 'user-menu' : undefined}
        aria-expanded={open}
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={<AccountCircleIcon />}
        endIcon={<ArrowDropDownIcon />}
        sx={{ maxWidth: { xs: 180, sm: 280 } }}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {user.username}
        </span>
      </Button>
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={open}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': 'user-menu-button' } }}
      >
        <MenuItem component={RouterLink} to="/account" onClick={close}>
          My Account
        </MenuItem>
        <MenuItem component={RouterLink} to="/account/change-password/" onClick={close}>
          Change Password
        </MenuItem>
        <Divider />
        <MenuItem
          disabled={isPending}
          onClick={() => {
            close();
            logout();
          }}
        >
          Logout
        </MenuItem>
      </Menu>
    </>
  );
}
