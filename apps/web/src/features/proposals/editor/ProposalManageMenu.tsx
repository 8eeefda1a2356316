import { ManageMenu } from '../../../components/ManageMenu';

export type ProposalAction =
  | 'pdf'
  | 'addReview'
  | 'editReview'
  | 'viewReviews'
  | 'collaborators'
  | 'reviewers'
  | 'files'
  | 'submit'
  | 'retract'
  | 'delete';

const LABELS: Record<ProposalAction, string> = {
  pdf: 'Save PDF',
  addReview: 'Add Review',
  editReview: 'Edit Review',
  viewReviews: 'View Reviews',
  collaborators: 'Manage Collaborators',
  reviewers: 'Manage Reviewers',
  files: 'Manage Uploaded Files',
  submit: 'Submit Proposal',
  retract: 'Retract Proposal',
  delete: 'Delete Proposal',
};

/**
 * The Manage menu of the proposal editor (spec section 2): the actions the caller may
 * take, as the server's abilities say, in the spec's order. An action with a page of its
 * own (the review pages) is a link there (`links`). Nothing to offer, no menu.
 */
export function ProposalManageMenu({
  actions,
  links = {},
  onSelect,
}: {
  actions: readonly ProposalAction[];
  links?: Partial<Record<ProposalAction, string>>;
  onSelect: (action: ProposalAction) => void;
}) {
  return (
    <ManageMenu
      items={actions.map((action) => {
        const to = links[action];
        return to
          ? { label: LABELS[action], to }
          : { label: LABELS[action], onSelect: () => onSelect(action) };
      })}
    />
  );
}
