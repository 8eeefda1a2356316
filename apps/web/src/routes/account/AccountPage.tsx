import type { UserDetails, UserDetailsUpdate } from '@merit/contract';
import { GENDER_LABELS } from '@merit/domain';
import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableRow,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useNotify } from '../../components/notifications/notification-context';
import { PageHeading } from '../../components/PageHeading';
import { CollaboratorHash } from '../../features/account/CollaboratorHash';
import { DeleteAccount } from '../../features/account/DeleteAccount';
import { EditAccountDialog } from '../../features/account/EditAccountDialog';
import { LinkInstitutionalLogin } from '../../features/account/LinkInstitutionalLogin';
import { MyRemindersSection } from '../../features/account/MyRemindersSection';
import { RolesTable } from '../../features/account/RolesTable';
import { SessionsTable } from '../../features/account/SessionsTable';
import { TwoFactorSection } from '../../features/account/TwoFactorSection';
import { YourData } from '../../features/account/YourData';
import { currentUserKey, useCurrentUser } from '../../features/auth/session-hooks';
import { RecentCollaborators } from '../../features/conflicts/RecentCollaborators';
import { useAuthMethods } from '../../features/auth/use-auth-methods';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ mb: 4 }}>
      <Typography variant="h6" component="h2" id={id} gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** Says once that linking worked, when the provider sends the user back with ?linked=1. */
function useLinkedNotice() {
  const [params, setParams] = useSearchParams();
  const notify = useNotify();
  const shown = useRef(false);
  const linked = params.get('linked') === '1';
  useEffect(() => {
    if (!linked || shown.current) return;
    shown.current = true;
    notify("Your institution's login is now linked to this account.");
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('linked');
        return next;
      },
      { replace: true },
    );
  }, [linked, notify, setParams]);
}

/** /account/: the user's details, editable through a dialog, their hash and their roles. */
export default function AccountPage() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const methods = useAuthMethods();
  const [editing, setEditing] = useState(false);
  const { hash } = useLocation();
  useLinkedNotice();
  // A link to one section (the admin pages' "Go to two-step verification"): the router does
  // not scroll to a fragment by itself. jsdom has no scrollIntoView, hence the `?.`.
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView?.({ block: 'start' });
  }, [hash]);

  const updateDetails = (details: UserDetails) => {
    queryClient.setQueryData(currentUserKey, details);
    // Spec section 4: saving reloads the user details.
    void queryClient.invalidateQueries({ queryKey: currentUserKey });
  };
  const onSaved = (details: UserDetails, changes: UserDetailsUpdate) => {
    updateDetails(details);
    if (changes.email !== undefined && details.pending_email) {
      notify(
        `We sent a confirmation link to ${details.pending_email}. ` +
          'Your email changes when you follow it.',
        'info',
      );
    } else {
      notify('Your details have been saved.');
    }
  };

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
  ];
  const oidc = methods.data?.oidc;

  return (
    <>
      <PageHeading>My Account</PageHeading>
      <Section id="details-heading" title="Details">
        <TableContainer component={Paper} variant="outlined" sx={{ mb: 2, maxWidth: 720 }}>
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
        <Button variant="contained" startIcon={<EditIcon />} onClick={() => setEditing(true)}>
          Edit details
        </Button>
        <EditAccountDialog
          user={user}
          open={editing}
          onClose={() => setEditing(false)}
          onSaved={onSaved}
        />
      </Section>
      <Section id="hash-heading" title="Collaborator hash">
        <CollaboratorHash hash={user.hash} onRenewed={(hash) => updateDetails({ ...user, hash })} />
      </Section>
      {oidc && !user.is_aaf && (
        <Section id="institution-heading" title="Institutional login">
          {user.has_federated_login ? (
            <Typography>
              Your {oidc.displayName} login is linked: you can log in with it or with your username
              and password.
            </Typography>
          ) : (
            <LinkInstitutionalLogin providerName={oidc.displayName} />
          )}
        </Section>
      )}
      <Section id="collaborators-heading" title="Recent collaborators">
        <RecentCollaborators />
      </Section>
      <Section id="roles-heading" title="Committee roles">
        <RolesTable roles={user.roles} labelledBy="roles-heading" />
      </Section>
      <Section id="reminders-heading" title="Reminders you receive">
        <MyRemindersSection labelledBy="reminders-heading" />
      </Section>
      <Section id="two-factor-heading" title="Two-step verification">
        <TwoFactorSection user={user} />
      </Section>
      <Section id="sessions-heading" title="Sessions">
        <SessionsTable labelledBy="sessions-heading" />
      </Section>
      <Section id="data-heading" title="Your data">
        <YourData />
      </Section>
      <Section id="delete-heading" title="Delete my account">
        <DeleteAccount user={user} />
      </Section>
    </>
  );
}
