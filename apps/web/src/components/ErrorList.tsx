import { Alert, Box } from '@mui/material';

/**
 * The red list of errors above a form (spec section 8): the server's `detail` and
 * every field message, or the form's own checks, one item each.
 */
export function ErrorList({ messages }: { messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }}>
      <Box
        component="ul"
        sx={{
          m: 0,
          pl: messages.length > 1 ? 2 : 0,
          listStyle: messages.length > 1 ? 'disc' : 'none',
        }}
      >
        {messages.map((message, index) => (
          <li key={index}>{message}</li>
        ))}
      </Box>
    </Alert>
  );
}
