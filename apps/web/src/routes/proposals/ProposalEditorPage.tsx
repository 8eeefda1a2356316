import { useMemo } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { Section } from '../../components/Section';
import { useIdParam } from '../../components/use-id-param';
import { ProposalHistory } from '../../features/activity/ProposalHistory';
import { isDeclarationRequired } from '../../features/conflicts/conflicts.api';
import { ConflictsPanel } from '../../features/conflicts/ConflictsPanel';
import { DeclarationGate } from '../../features/conflicts/DeclarationGate';
import { ProposalDecisionPanel } from '../../features/decisions/ProposalDecisionPanel';
import { DecisionSummaryPanel } from '../../features/proposals/decision/DecisionSummaryPanel';
import { editorForms } from '../../features/proposals/editor/editor-state';
import { ProposalEditor } from '../../features/proposals/editor/ProposalEditor';
import { useProposal, useProposalFormOrder } from '../../features/proposals/proposals.api';

/** /calls/{callId}/proposals/{proposalId}/: the proposal editor (spec section 2). */
export default function ProposalEditorPage() {
  const callId = useIdParam('callId');
  const proposalId = useIdParam('proposalId');
  if (callId === null || proposalId === null) return <NotFoundView />;
  // Another proposal is another editor: its answers, its lock, its unsaved changes.
  return <ProposalEditorView key={proposalId} callId={callId} proposalId={proposalId} />;
}

function ProposalEditorView({ callId, proposalId }: { callId: number; proposalId: number }) {
  const proposal = useProposal(proposalId);
  const order = useProposalFormOrder(callId);
  const typeId = proposal.data?.proposalTypeId;
  const forms = useMemo(
    () => editorForms(order.data?.find((type) => type.typeId === typeId)?.forms ?? []),
    [order.data, typeId],
  );

  // Once loaded, the editor stays when a later refetch fails: it holds unsaved answers.
  if (proposal.data === undefined || order.data === undefined) {
    // A member who must first say whether they have a conflict of interest with it.
    if (isDeclarationRequired(proposal.error))
      return <DeclarationGate proposalId={proposalId} callId={callId} />;
    const failed = proposal.isError ? proposal : order.isError ? order : null;
    if (failed)
      return <LoadFailedView error={failed.error} onRetry={() => void failed.refetch()} />;
    return <LoadingView label="Loading the proposal…" />;
  }
  // The proposal exists, but under another call than the address says.
  if (proposal.data.callId !== callId) return <NotFoundView />;
  if (forms.length === 0) {
    return (
      <>
        <PageHeading>{proposal.data.proposalName}</PageHeading>
        <EmptyState>This proposal type has no forms to fill in.</EmptyState>
        <ConflictsPanel proposal={proposal.data} />
        <DecisionSummaryPanel proposal={proposal.data} />
        <ProposalDecisionPanel proposal={proposal.data} />
        {/* No forms, so no tabs: the history as a part of the page (issue 28). */}
        {proposal.data.abilities.viewHistory && (
          <Section id="proposal-history" title="History">
            <ProposalHistory proposal={proposal.data} />
          </Section>
        )}
      </>
    );
  }
  return <ProposalEditor proposal={proposal.data} forms={forms} />;
}
