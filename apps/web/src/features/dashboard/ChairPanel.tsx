import type { UserDetails } from '@merit/contract';
import { FORM_TYPE_LABELS, isProposalForm, isReviewForm } from '@merit/domain';
import { Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { Section } from '../../components/Section';
import { chairedCommittees } from '../calls/call-actor';
import { useCallList } from '../calls/calls.api';
import { useFormList } from '../forms/forms.api';
import { InvitationLink } from './InvitationLink';

/**
 * For a chair who is not an admin (admins have the setup checklist): "Create your first
 * call" while none of their committees has a call, with the forms a call needs and who
 * makes them; and always their committee's invitation link (issue 30).
 */
export function ChairPanel({ user }: { user: UserDetails }) {
  const committees = chairedCommittees(user) ?? [];
  return committees.length > 0 ? <ChairSections committees={committees} /> : null;
}

function ChairSections({ committees }: { committees: { id: number; name: string }[] }) {
  const calls = useCallList('all');
  const chaired = new Set(committees.map((c) => c.id));
  const noCallYet = calls.data !== undefined && !calls.data.some((c) => chaired.has(c.committeeId));

  return (
    <>
      {noCallYet && <FirstCall />}
      <Section id="invite-people" title="Invite people to your committee" outlined>
        <Typography variant="body2" color="text.secondary">
          The link opens registration naming your committee. The people who follow it register and
          confirm their email as usual; an administrator gives committee members their role.
        </Typography>
        <InvitationLink committees={committees} />
      </Section>
    </>
  );
}

function FirstCall() {
  const forms = useFormList();
  const proposalForms = forms.data?.filter((f) => isProposalForm(f.type)) ?? [];
  const reviewForms = forms.data?.filter((f) => isReviewForm(f.type)) ?? [];

  let needs;
  if (forms.isPending) needs = <Typography>Looking for forms…</Typography>;
  else if (forms.isError)
    needs = <Typography color="error">{errorMessages(forms.error).join(' ')}</Typography>;
  else if (forms.data.length === 0)
    needs = (
      <Typography>
        There are no forms yet. Administrators create forms in the Form Builder: ask an
        administrator to add at least a proposal form, and a review form for your committee.
      </Typography>
    );
  else
    needs = (
      <>
        <Typography>The forms you can choose from:</Typography>
        <ul>
          {forms.data.map((f) => (
            <li key={f.id}>{`${f.display_name} ${f.version} (${FORM_TYPE_LABELS[f.type]})`}</li>
          ))}
        </ul>
        {(proposalForms.length === 0 || reviewForms.length === 0) && (
          <Typography>
            {`There is no ${proposalForms.length === 0 ? 'proposal' : 'review'} form yet: administrators create forms in the Form Builder, so ask an administrator to add one.`}
          </Typography>
        )}
      </>
    );

  return (
    <Section id="first-call" title="Create your first call" outlined>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        A call has a name, its submission and review dates, and for each proposal type the forms
        applicants fill in and the forms reviewers fill in.
      </Typography>
      {needs}
      <Button component={RouterLink} to="/calls/new" variant="contained" sx={{ mt: 2 }}>
        Add Call for Proposal
      </Button>
    </Section>
  );
}
