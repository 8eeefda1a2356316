import { messages } from '@merit/domain';
import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { MessageView } from './MessageView';

export function NotFoundView({ standalone = false }: { standalone?: boolean }) {
  return (
    <MessageView
      standalone={standalone}
      title="Page not found"
      message={messages.notFoundPage}
      actions={
        <Button variant="contained" component={RouterLink} to="/">
          Home
        </Button>
      }
    />
  );
}
