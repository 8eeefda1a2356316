import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, Button, Drawer, IconButton, Link, Toolbar, Typography } from '@mui/material';
import { useState, type MouseEvent } from 'react';
import { Link as RouterLink, Outlet } from 'react-router';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { SideNav } from './SideNav';
import { UserMenu } from './UserMenu';

const DRAWER_WIDTH = 248;
/** The user manual, served by the API server (not part of this bundle). */
export const HELP_URL = '/help/manual.pdf';

function focusMain(event: MouseEvent<HTMLAnchorElement>) {
  // Move focus as well as scrolling, and keep the router out of a same-page hash jump.
  event.preventDefault();
  document.getElementById('main-content')?.focus();
}

/** The signed-in frame of spec section 2: top bar, side menu, and the page. */
export default function AppShell() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Link
        href="#main-content"
        onClick={focusMain}
        sx={{
          position: 'absolute',
          left: 8,
          top: -64,
          zIndex: 'tooltip',
          p: 1.5,
          bgcolor: 'background.paper',
          borderRadius: 1,
          boxShadow: 3,
          '&:focus': { top: 8 },
        }}
      >
        Skip to main content
      </Link>
      {/*
       * Above the permanent drawer from md up, which starts below it; below md the
       * drawer is a modal that must cover the bar, or the bar hides its first items.
       */}
      <AppBar position="fixed" sx={(theme) => ({ zIndex: { md: theme.zIndex.drawer + 1 } })}>
        <Toolbar>
          <IconButton
            color="inherit"
            edge="start"
            aria-label="Open navigation menu"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
            sx={{ mr: 1, display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          <Typography
            component={RouterLink}
            to="/"
            variant="h6"
            sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, mr: 'auto' }}
          >
            Merit
          </Typography>
          <Button color="inherit" href={HELP_URL} target="_blank" rel="noopener noreferrer">
            Help
            <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
          </Button>
          <UserMenu />
        </Toolbar>
      </AppBar>

      <Box sx={{ width: { md: DRAWER_WIDTH }, flexShrink: { md: 0 } }}>
        <Drawer
          variant="temporary"
          open={drawerOpen}
          onClose={closeDrawer}
          // The small-screen drawer is a modal dialog, which needs a name.
          slotProps={{ paper: { 'aria-label': 'Navigation menu' } }}
          sx={{
            display: { xs: 'block', md: 'none' },
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH },
          }}
        >
          <SideNav onNavigate={closeDrawer} />
        </Drawer>
        <Drawer
          variant="permanent"
          open
          sx={{
            display: { xs: 'none', md: 'block' },
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
          }}
        >
          <Toolbar />
          <SideNav />
        </Drawer>
      </Box>

      <Box
        component="main"
        id="main-content"
        tabIndex={-1}
        sx={{
          flexGrow: 1,
          minWidth: 0,
          px: { xs: 2, sm: 3, md: 4 },
          pb: 4,
          '&:focus': { outline: 'none' },
        }}
      >
        <Toolbar />
        <Box sx={{ pt: 3, maxWidth: 1200, mx: 'auto' }}>
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
