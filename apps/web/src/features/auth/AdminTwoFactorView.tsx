import { adminTwoFactorMessages } from '@merit/domain';
import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { MessageView } from '../../components/MessageView';

/** Where the account page's two-step verification section is. */
export const TWO_FACTOR_SETTINGS_PATH = '/account#two-factor-heading';

/**
 * An admin page, for an admin who must turn on two-step verification before administering
 * (ADMIN_TWO_FACTOR=required; the server refuses them the admin routes): why, and the way
 * to the setting. Once it is on, their details say so and the page opens, with no new login.
 */
export function AdminTwoFactorView() {
  return (
    <MessageView
      title="Turn on two-step verification"
      message={adminTwoFactorMessages.required}
      actions={
        <Button variant="contained" component={RouterLink} to={TWO_FACTOR_SETTINGS_PATH}>
          Go to two-step verification
        </Button>
      }
    />
  );
}
