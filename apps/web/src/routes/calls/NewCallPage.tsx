import { BackLink } from '../../components/BackLink';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { canStartCall, chairedCommittees } from '../../features/calls/call-actor';
import { useAllCommittees } from '../../features/calls/calls.api';
import { CallWizard } from '../../features/calls/wizard/CallWizard';

/** /calls/new: chairs create a call for one of their committees; admins for any. */
export default function NewCallPage() {
  const user = useCurrentUser();
  const chaired = chairedCommittees(user);
  const allowed = canStartCall(user);
  // Admins may choose any committee, which only the admin list names.
  const everyCommittee = useAllCommittees(allowed && chaired === null);

  if (!allowed) return <AccessDeniedView />;
  let committees = chaired;
  if (committees === null) {
    if (everyCommittee.isPending) return <LoadingView label="Loading committees…" />;
    if (everyCommittee.isError)
      return (
        <LoadFailedView
          error={everyCommittee.error}
          onRetry={() => void everyCommittee.refetch()}
        />
      );
    committees = everyCommittee.data;
  }

  return (
    <>
      <BackLink to="/calls">Call for Proposals</BackLink>
      <PageHeading>New Call for Proposal</PageHeading>
      <CallWizard committees={committees} />
    </>
  );
}
