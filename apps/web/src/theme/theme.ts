import { createTheme } from '@mui/material';

/**
 * A restrained, high-contrast theme. Every text colour on its background meets
 * WCAG AA (4.5:1); the e2e suite runs axe on every page and fails on contrast.
 */
/**
 * Layers, bottom to top: the top bar, dialogs (modal, 1300), notifications (snackbar,
 * 1400), then what drops down from a button: menus, selects and suggestion lists. A
 * notification shows above the dialog it reports on, where it can be read and closed,
 * and never covers the menu someone just opened (the user menu drops down where
 * notifications appear).
 */
const DROP_DOWN_LAYER = 1450;

export const theme = createTheme({
  palette: {
    primary: { main: '#1a4480', contrastText: '#ffffff' },
    secondary: { main: '#5c2d91', contrastText: '#ffffff' },
    // MUI's orange (#ed6c02) gives white text 3.1:1; this one 5.6:1, and as text on white
    // too (WCAG AA), for warning chips and buttons.
    warning: { main: '#a35200', contrastText: '#ffffff' },
    background: { default: '#f4f6f9', paper: '#ffffff' },
    text: { primary: '#1b1f24', secondary: '#4a5360' },
  },
  shape: { borderRadius: 6 },
  typography: {
    fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif',
    h4: { fontWeight: 500, fontSize: '1.75rem' },
    h5: { fontWeight: 500 },
    button: { textTransform: 'none', fontWeight: 500 },
  },
  components: {
    // Links inside text must be told apart without relying on colour alone.
    MuiLink: { defaultProps: { underline: 'always' } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
    MuiPopover: { styleOverrides: { root: { zIndex: DROP_DOWN_LAYER } } },
    MuiAutocomplete: { styleOverrides: { popper: { zIndex: DROP_DOWN_LAYER } } },
  },
});
