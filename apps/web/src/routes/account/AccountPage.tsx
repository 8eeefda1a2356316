import type { UserRole } from '@merit/contract';
import { GENDER_LABELS, type CommitteeRoleName } from '@merit/domain';
import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { PageHeading } from '../../components/PageHeading';
import { useCurrentUser } from '../../features/auth/session-hooks';

const ROLE_LABELS: Record<CommitteeRoleName, string> = { CHAIR: 'Chair', MEMBER: 'Member' };

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });
}

function RolesTable({ roles }: { roles: UserRole[] }) {
  if (roles.length === 0) return <Typography>You have no committee roles.</Typography>;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-labelledby="roles-heading">
        <TableHead>
          <TableRow>
            <TableCell>Committee</TableCell>
            <TableCell>Role</TableCell>
            <TableCell>Effective from</TableCell>
            <TableCell>Effective until</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {roles.map((role) => (
            <TableRow key={role.id}>
              <TableCell>{role.committeeName}</TableCell>
              <TableCell>{ROLE_LABELS[role.role]}</TableCell>
              <TableCell>{formatDate(role.commencement)}</TableCell>
              <TableCell>{formatDate(role.termination)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** /account/: the user's details (editing arrives with the accounts issue) and roles. */
export default function AccountPage() {
  const user = useCurrentUser();
  const details: [string, string][] = [
    ['Username', user.username],
    ['Name', [user.first_name, user.last_name].filter(Boolean).join(' ')],
    ['Email', user.email],
    ...(user.pending_email
      ? [['New email (awaiting confirmation)', user.pending_email] as [string, string]]
      : []),
    ['Institution', user.institution],
    ['Gender', user.gender ? GENDER_LABELS[user.gender] : ''],
    ['Phone', user.phone_number],
    ['Student', user.is_student ? 'Yes' : 'No'],
    ['Collaborator hash', user.hash],
  ];
  return (
    <>
      <PageHeading>My Account</PageHeading>
      <Typography variant="h6" component="h2" id="details-heading" gutterBottom>
        Details
      </Typography>
      <TableContainer component={Paper} variant="outlined" sx={{ mb: 4, maxWidth: 720 }}>
        <Table aria-labelledby="details-heading">
          <TableBody>
            {details.map(([label, value]) => (
              <TableRow key={label}>
                <TableCell component="th" scope="row" sx={{ width: 200, fontWeight: 500 }}>
                  {label}
                </TableCell>
                <TableCell>{value || '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="h6" component="h2" id="roles-heading" gutterBottom>
        Current committee roles
      </Typography>
      <RolesTable roles={user.roles.filter((role) => role.current)} />
    </>
  );
}
