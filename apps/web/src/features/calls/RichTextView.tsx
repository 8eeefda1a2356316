import { Box } from '@mui/material';

/** How rich text reads, in the editor and on the page alike. */
export const richTextStyles = {
  '& img': { maxWidth: '100%', height: 'auto' },
  '& h2': { typography: 'h6', mt: 2, mb: 1 },
  '& h3, & h4': { typography: 'subtitle1', fontWeight: 600, mt: 2, mb: 1 },
  '& p': { my: 1 },
  '& a': { color: 'primary.main' },
  '& ul, & ol': { pl: 3 },
} as const;

/**
 * Rich text the server has already sanitised with its allow-list (ARCHITECTURE.md "Rich
 * text"): scripts, handlers and styles never reach the page, so it is shown as it is.
 */
export function RichTextView({ html }: { html: string }) {
  return (
    <Box
      sx={{ typography: 'body1', overflowWrap: 'anywhere', ...richTextStyles }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
