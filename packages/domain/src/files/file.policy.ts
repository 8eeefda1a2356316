import { proposalPolicy, type ProposalResource } from '../proposals/proposal.policy.js';
import { definePolicy } from '../permissions/policy.js';

/**
 * The files of a proposal (issue 12): whoever may edit the proposal now (its lock
 * included) adds and removes them, and whoever may see the proposal downloads them and
 * its PDF. Named apart from the proposal's own actions so the server's checkpoint and
 * the authorization table say which rule guards a file.
 */
export const filePolicy = definePolicy<ProposalResource>()({
  upload: proposalPolicy.edit,
  delete: proposalPolicy.edit,
  download: proposalPolicy.view,
});
