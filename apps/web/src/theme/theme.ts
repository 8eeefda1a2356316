import { createTheme } from '@mui/material';

/**
 * A restrained, high-contrast theme. Every text colour on its background meets
 * WCAG AA (4.5:1); the e2e suite runs axe on every page and fails on contrast.
 */
export const theme = createTheme({
  palette: {
    primary: { main: '#1a4480', contrastText: '#ffffff' },
    secondary: { main: '#5c2d91', contrastText: '#ffffff' },
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
  },
});
