import { proposalMessages, type Action } from '@merit/domain';
import { authorize } from '../../platform/http/authorize.js';
import { notFound } from '../../platform/http/http-errors.js';
import type { ReadWork } from '../../platform/data/work.js';
import { loadProposal, type LoadedProposal } from './proposals.queries.js';

/*
 * The proposals module's face for other modules (reviews, files): a proposal loaded for an
 * action and authorized.
 */

/** The actions whose rule reads a proposal: its own, and those on its files. */
type ProposalAction = Extract<Action, `proposal.${string}` | `file.${string}`>;

/**
 * The proposal, loaded for `action` and authorized: one the caller may not see is a 404
 * whatever the action and whatever the proposal is. With `forUpdate` its row stays
 * locked, so the checks hold for the change that follows.
 */
export async function loadFor(
  work: ReadWork,
  action: ProposalAction,
  id: number,
  forUpdate = false,
): Promise<LoadedProposal> {
  const loaded = await loadProposal(work.tx, work.actor, id, { forUpdate });
  if (!loaded) throw notFound(proposalMessages.notFound);
  authorize(work.actor, action, loaded.resource, work.now);
  return loaded;
}
