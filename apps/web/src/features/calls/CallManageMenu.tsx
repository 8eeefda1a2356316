import type { CallDetail } from '@merit/contract';
import { ManageMenu, type ManageMenuItem } from '../../components/ManageMenu';

interface CallManageMenuProps {
  call: CallDetail;
  onManageExtensions: () => void;
}

/**
 * The Manage menu of a call's page (spec section 2, Call detail). Each entry shows only
 * when the server's `abilities` allow it.
 */
export function CallManageMenu({ call, onManageExtensions }: CallManageMenuProps) {
  const { abilities } = call;
  const items: (ManageMenuItem | false)[] = [
    abilities.addProposal && { label: 'Add Proposal', to: `/calls/${call.id}/new` },
    { label: 'View Proposals', to: `/calls/${call.id}/proposals/` },
    abilities.edit && { label: 'Edit Call Details', to: `/calls/${call.id}/update` },
    abilities.manage && { label: 'Manage Call', to: `/calls/${call.id}/manage` },
    abilities.manage && { label: 'Conflicts of Interest', to: `/calls/${call.id}/conflicts` },
    abilities.assign && { label: 'Assign Reviewers', to: `/calls/${call.id}/assignment` },
    abilities.bid && { label: 'Bid on Proposals', to: `/calls/${call.id}/bids` },
    abilities.followReview && { label: 'Review Progress', to: `/calls/${call.id}/progress` },
    abilities.followReview && { label: 'Reminders', to: `/calls/${call.id}/reminders` },
    abilities.decide && { label: 'Ranking', to: `/calls/${call.id}/ranking` },
    abilities.decide && { label: 'Letters', to: `/calls/${call.id}/letters` },
    abilities.followReview && { label: 'Activity', to: `/calls/${call.id}/activity` },
    abilities.manageExtensions && { label: 'Manage Extensions', onSelect: onManageExtensions },
  ];
  return <ManageMenu items={items.filter((item) => item !== false)} />;
}
