import { fileMessages, isProposalTeam } from '@merit/domain';
import { and, eq, isNotNull } from 'drizzle-orm';
import { decisionLetters } from '../../db/schema.js';
import { notFound } from '../../platform/http/http-errors.js';
import type { ReadWork } from '../../platform/data/work.js';
import { loadFor } from '../proposals/proposal-access.js';
import type { LetterRow } from './letters.queries.js';

/*
 * The letters module's face for other modules (files): a decision letter loaded for its
 * PDF's download and authorized.
 */

/**
 * A letter for its PDF's download: not superseded, its PDF made, of a proposal whose
 * outcome the caller may read (`proposal.viewOutcome`); its applicants only one that is
 * sent or on its way (not a failed one). A letter that is missing, superseded, without
 * its PDF yet, or failed (to its applicants) is the same 404; a caller who may not read
 * the outcome gets the policy's refusal, as for a proposal's files.
 */
export async function letterForDownload(work: ReadWork, letterId: number): Promise<LetterRow> {
  const [letter] = await work.tx
    .select()
    .from(decisionLetters)
    .where(and(eq(decisionLetters.id, letterId), isNotNull(decisionLetters.storageKey)));
  if (!letter || letter.state === 'superseded') throw notFound(fileMessages.notFound);
  const loaded = await loadFor(work, 'proposal.viewOutcome', letter.proposalId);
  if (isProposalTeam(work.actor, loaded.resource) && letter.state === 'failed')
    throw notFound(fileMessages.notFound);
  return letter;
}
