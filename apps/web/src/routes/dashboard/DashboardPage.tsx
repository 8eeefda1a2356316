import { Button, Paper, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { PageHeading } from '../../components/PageHeading';
import { useCurrentUser } from '../../features/auth/session-hooks';

/** `/`. The count panels and proposal/review tables arrive with calls and reviews. */
export default function DashboardPage() {
  const user = useCurrentUser();
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
  return (
    <>
      <PageHeading>Dashboard</PageHeading>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Welcome, {name}.
        </Typography>
        <Typography sx={{ mb: 2 }}>
          Browse the calls for proposals to start a proposal or follow the ones you are part of.
        </Typography>
        <Button variant="contained" component={RouterLink} to="/calls">
          View calls for proposals
        </Button>
      </Paper>
    </>
  );
}
