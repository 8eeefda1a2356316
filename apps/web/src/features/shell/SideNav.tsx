import { isAdmin } from '@merit/domain';
import {
  Divider,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
} from '@mui/material';
import { NavLink } from 'react-router';
import { toActor, useCurrentUser } from '../auth/session-hooks';
import { isAnyMember } from '../calls/call-actor';
import { adminNavItems, memberNavItems, reviewerNavItems, type NavItem } from './nav-items';

function NavItems({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  return items.map((item) => (
    <ListItem key={item.to} disablePadding>
      <ListItemButton
        component={NavLink}
        to={item.to}
        end={item.end}
        onClick={onNavigate}
        sx={{
          borderLeft: 4,
          borderColor: 'transparent',
          // NavLink marks the current page with `.active` and aria-current="page".
          '&.active': {
            borderColor: 'primary.main',
            bgcolor: 'action.selected',
            color: 'primary.main',
            '& .MuiListItemIcon-root': { color: 'primary.main' },
            '& .MuiListItemText-primary': { fontWeight: 700 },
          },
        }}
      >
        <ListItemIcon sx={{ minWidth: 40 }}>{item.icon}</ListItemIcon>
        <ListItemText primary={item.label} />
      </ListItemButton>
    </ListItem>
  ));
}

/** The side menu; `onNavigate` closes the small-screen drawer after a choice. */
export function SideNav({ onNavigate }: { onNavigate?: () => void }) {
  const user = useCurrentUser();
  return (
    <nav aria-label="Main navigation">
      <List>
        <NavItems
          // My Pending Reviews after Call for Proposals: the reviewer's way to their work.
          items={
            isAnyMember(user)
              ? [...memberNavItems.slice(0, 2), ...reviewerNavItems, ...memberNavItems.slice(2)]
              : memberNavItems
          }
          onNavigate={onNavigate}
        />
      </List>
      {isAdmin(toActor(user)) && (
        <>
          <Divider />
          <List
            aria-labelledby="admin-nav-heading"
            subheader={
              <ListSubheader id="admin-nav-heading" sx={{ color: 'text.secondary' }}>
                Administration
              </ListSubheader>
            }
          >
            <NavItems items={adminNavItems} onNavigate={onNavigate} />
          </List>
        </>
      )}
    </nav>
  );
}
