import type { ProposalDetail } from '@merit/contract';
import { decide, isProposalTeam } from '@merit/domain';
import type { ReadWork } from '../../platform/data/work.js';
import type { LoadedProposal } from '../proposals/proposals.queries.js';
import { presentDecision } from './decisions.presenter.js';
import { currentLetterOf, decisionOf, requestedOf } from './decisions.queries.js';

/*
 * The decisions module's face: what a proposal's page shows of its decision (issue 29).
 */

/**
 * A proposal's `decision` for its page, for whoever may read it (`proposal.viewOutcome`):
 * its chairs with the notes and who decided; its author and collaborators, once the
 * decisions of the closed call are released, only the outcome, the awards beside what
 * they asked for, and a letter that is queued or sent. Nothing at all for anyone else.
 */
export async function decisionFactsOf(
  work: ReadWork,
  loaded: LoadedProposal,
): Promise<Pick<ProposalDetail, 'decision'>> {
  const { tx, actor, now } = work;
  if (decide('proposal.viewOutcome', actor, loaded.resource, now) !== true) return {};
  const id = loaded.proposal.id;
  const applicant = isProposalTeam(actor, loaded.resource);
  const [row, letter, requested] = await Promise.all([
    decisionOf(tx, id),
    currentLetterOf(tx, id, applicant),
    requestedOf(tx, id),
  ]);
  return { decision: presentDecision(row, letter, requested, !applicant) };
}
