import type { CallDetail } from '@merit/contract';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { DetailsTable } from '../../components/DetailsTable';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { Section } from '../../components/Section';
import { useIdParam } from '../../components/use-id-param';
import { formatCallDate } from '../../features/calls/call-dates';
import { callStatus } from '../../features/calls/call-status';
import { CallManageMenu } from '../../features/calls/CallManageMenu';
import { useCall } from '../../features/calls/calls.api';
import { FormStructure } from '../../features/calls/FormStructure';
import { RichTextView } from '../../features/calls/RichTextView';

// Only chairs open it, and only when they ask to.
const ExtensionsDialog = lazy(() => import('../../features/calls/ExtensionsDialog'));

/** /calls/{callId}/: the call's details, description and forms, with the Manage menu. */
export default function CallDetailPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallDetailView callId={callId} />;
}

function CallDetailView({ callId }: { callId: number }) {
  const call = useCall(callId);
  const [extensionsOpen, setExtensionsOpen] = useState(false);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  const data = call.data;

  return (
    <>
      <BackLink to={data.closed ? '/calls/closed' : '/calls'}>Call for Proposals</BackLink>
      <PageHeading
        actions={
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
            {data.abilities.bid && (
              <Button variant="outlined" component={RouterLink} to={`/calls/${data.id}/bids`}>
                Bid on Proposals
              </Button>
            )}
            <CallManageMenu call={data} onManageExtensions={() => setExtensionsOpen(true)} />
          </Stack>
        }
      >
        {data.name}
      </PageHeading>
      <Section id="call-details" title="Details">
        <DetailsTable labelledBy="call-details" rows={detailRows(data)} />
      </Section>
      <Section id="call-description" title="Description">
        <Paper variant="outlined" sx={{ p: 2, maxWidth: 960 }}>
          {data.description ? (
            <RichTextView html={data.description} />
          ) : (
            <Typography color="text.secondary">This call has no description.</Typography>
          )}
        </Paper>
      </Section>
      <Section id="call-forms" title="Proposal types and forms">
        <FormStructure types={data.proposalTypes} />
      </Section>
      {extensionsOpen && (
        <Suspense fallback={null}>
          <ExtensionsDialog call={data} open onClose={() => setExtensionsOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function detailRows(call: CallDetail): [string, string][] {
  const rows: [string, string][] = [
    ['Name', call.name],
    ['Committee', call.committeeName],
    ['Submission opens', formatCallDate(call.commencement)],
    ['Submission deadline', formatCallDate(call.termination)],
    ['Review starts', formatCallDate(call.reviewCommencement)],
    ['Review deadline', formatCallDate(call.reviewTermination)],
    ['Review open to all committee members', call.isReviewOpen ? 'Yes' : 'No'],
    ['Status', callStatus(call)],
  ];
  if (call.myRoles.length > 0) rows.push(['My roles', call.myRoles.join(', ')]);
  // Chairs see every extension in Manage Extensions; others see their own here.
  if (!call.abilities.manage && call.extensions.length > 0) {
    const windows = call.extensions.map(
      (extension) =>
        `${formatCallDate(extension.commencement)} until ${formatCallDate(extension.termination)}`,
    );
    rows.push(['My extension', windows.join('; ')]);
  }
  return rows;
}
