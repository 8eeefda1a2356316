import { messages } from '@merit/domain';
import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { MessageView } from './MessageView';

export function AccessDeniedView() {
  return (
    <MessageView
      title="Access denied"
      message={messages.noPermission}
      actions={
        <Button variant="contained" component={RouterLink} to="/">
          Home
        </Button>
      }
    />
  );
}
