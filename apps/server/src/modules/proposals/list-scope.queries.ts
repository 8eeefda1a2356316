import { proposalListScope, type CommitteeActor } from '@merit/domain';
import { gte, or, sql, type SQL } from 'drizzle-orm';
import { proposals } from '../../db/schema.js';
import type { CallRow } from '../calls/calls.queries.js';
import { enforcedConflictProposalIdsSql } from '../conflicts/conflicts.queries.js';
import { reviewedSql } from './reviewed.queries.js';

/*
 * Which of a call's proposals a caller sees in its list, one rule written twice: the
 * domain's `proposalListScope` (the `proposal.view` rule for a whole call, re-exported
 * here so the two sit side by side) and its SQL, `listScopeSql`, for lists of thousands.
 * list-scope.api.test.ts, beside this file, holds the two to the same answers for every
 * persona.
 */
export { proposalListScope } from '@merit/domain';

/** The actor is the author or a collaborator of the proposal in the FROM as `proposals`. */
export const ownSql = (actorId: number) => sql<boolean>`(
  "proposals"."author_id" = ${actorId}
  or exists (
    select 1 from "proposal_collaborators" pc
    where pc."proposal_id" = "proposals"."id" and pc."user_id" = ${actorId}
  )
)`;

/**
 * The actor has a conflict of interest with the proposal in the FROM as `proposals` that
 * is enforced (the domain's `isConflicted`): confirmed and not overridden
 * (`enforcedConflictProposalIdsSql`), on a call with conflicts turned on, and not of its team (who are kept away as its team). One scan of the actor's
 * confirmed conflicts (`conflicts_user_idx`), however many proposals the list holds.
 */
export const conflictedSql = (actorId: number, call: Pick<CallRow, 'conflictsEnabled'>) =>
  call.conflictsEnabled
    ? sql<boolean>`(
  "proposals"."id" in ${enforcedConflictProposalIdsSql(actorId)}
  and not ${ownSql(actorId)}
)`
    : sql<boolean>`false`;

/**
 * The caller's scope of a call's list (`proposalListScope`) as SQL over `proposals` in the
 * FROM: `visible`, the WHERE of the rows they see (undefined: all of them); `reviewed`,
 * whether a row shows as Reviewed to them (never on their own proposals, nor on those they
 * have a conflict of interest with); `own`, whether they are its author or a collaborator;
 * `conflicted`, whether they have an enforced conflict of interest with it.
 */
export function listScopeSql(actor: CommitteeActor, call: CallRow, now: Date) {
  const scope = proposalListScope(actor, call, now);
  const own = ownSql(actor.id);
  const conflicted = conflictedSql(actor.id, call);
  const visible: Record<typeof scope.rows, SQL | undefined> = {
    all: undefined,
    submittedAndOwn: or(gte(proposals.stateVal, 1), own),
    own,
  };
  const reviewed = scope.reviewed
    ? sql<boolean>`(${reviewedSql} and not ${own} and not ${conflicted})`
    : sql<boolean>`false`;
  return { scope, own, conflicted, visible: visible[scope.rows], reviewed };
}
