import { ManageMenu } from '../../../components/ManageMenu';

export type ProposalAction = 'pdf' | 'collaborators' | 'files' | 'submit' | 'retract' | 'delete';

const LABELS: Record<ProposalAction, string> = {
  pdf: 'Save PDF',
  collaborators: 'Manage Collaborators',
  files: 'Manage Uploaded Files',
  submit: 'Submit Proposal',
  retract: 'Retract Proposal',
  delete: 'Delete Proposal',
};

/**
 * The Manage menu of the proposal editor (spec section 2): the actions the caller may
 * take, as the server's abilities say, in the spec's order. Nothing to offer, no menu.
 */
export function ProposalManageMenu({
  actions,
  onSelect,
}: {
  actions: readonly ProposalAction[];
  onSelect: (action: ProposalAction) => void;
}) {
  return (
    <ManageMenu
      items={actions.map((action) => ({ label: LABELS[action], onSelect: () => onSelect(action) }))}
    />
  );
}
