import { resourceValues, type Outcome, type ResourceValues } from '@merit/domain';
import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  calls,
  committees,
  decisionLetters,
  letterTemplates,
  proposalCollaborators,
  proposalDecisions,
  proposals,
  users,
} from '../../db/schema.js';
import { personNameSql } from '../../platform/data/sql.js';
import { resourceEntriesOf } from '../proposals/resource-totals.queries.js';

/*
 * Decision letters in the database (issue 29): a call's templates, what a proposal's
 * letter is written from, the letters written, and who they go to.
 */

export type LetterRow = typeof decisionLetters.$inferSelect;
export type LetterTemplateRow = typeof letterTemplates.$inferSelect;

/** A call's stored templates, by outcome (an outcome never saved has none). */
export async function templatesOf(
  tx: Tx,
  callId: number,
): Promise<Map<Outcome, LetterTemplateRow>> {
  const rows = await tx.select().from(letterTemplates).where(eq(letterTemplates.callId, callId));
  return new Map(rows.map((row) => [row.outcome, row]));
}

/** What one proposal's letter is written from, besides its call's. */
export interface LetterSource {
  proposalId: number;
  name: string;
  authorName: string;
  /** The sanitised decision summary (HTML), or null. */
  decisionSummary: string | null;
  outcome: Outcome | null;
  awards: ResourceValues;
  decisionVersion: number;
  requested: ResourceValues;
}

/**
 * The submitted proposals of a call with what their letters say (`where` narrows them, over
 * `proposals` and `proposal_decisions`), ordered by id; `requested` from their resource
 * forms as the chair's list sums them (empty with `requested: false`). A proposal no chair has decided on has no outcome.
 */
export async function letterSourcesOf(
  tx: Tx,
  callId: number,
  where?: SQL,
  options: { requested?: boolean } = {},
): Promise<LetterSource[]> {
  const rows = await tx
    .select({
      proposalId: proposals.id,
      name: proposals.name,
      authorName: personNameSql(users),
      decisionSummary: proposals.decisionSummary,
      outcome: proposalDecisions.outcome,
      awards: proposalDecisions.awards,
      decisionVersion: proposalDecisions.version,
    })
    .from(proposals)
    .innerJoin(users, eq(users.id, proposals.authorId))
    .leftJoin(proposalDecisions, eq(proposalDecisions.proposalId, proposals.id))
    .where(and(eq(proposals.callId, callId), sql`${proposals.stateVal} >= 1`, where))
    .orderBy(asc(proposals.id));
  // The letters' awards tables need them; the list of letters does not.
  const ids =
    options.requested === false
      ? []
      : rows.filter((row) => row.outcome).map((row) => row.proposalId);
  const entries = new Map<number, Awaited<ReturnType<typeof resourceEntriesOf>>>();
  for (const entry of await resourceEntriesOf(tx, ids))
    entries.set(entry.proposalId, [...(entries.get(entry.proposalId) ?? []), entry]);
  return rows.map((row) => ({
    ...row,
    outcome: row.outcome ?? null,
    awards: row.awards ?? {},
    decisionVersion: row.decisionVersion ?? 0,
    requested: resourceValues(entries.get(row.proposalId) ?? []),
  }));
}

/**
 * Each proposal's current letter: its latest that is not superseded (by when it was
 * written, then by id), for those of `proposalIds` that have one.
 */
export async function currentLettersOf(
  tx: Tx,
  proposalIds: readonly number[],
): Promise<Map<number, LetterRow>> {
  if (proposalIds.length === 0) return new Map();
  const rows = await tx
    .selectDistinctOn([decisionLetters.proposalId])
    .from(decisionLetters)
    .where(
      and(
        inArray(decisionLetters.proposalId, [...proposalIds]),
        ne(decisionLetters.state, 'superseded'),
      ),
    )
    .orderBy(
      asc(decisionLetters.proposalId),
      desc(decisionLetters.createdAt),
      desc(decisionLetters.id),
    );
  return new Map(rows.map((row) => [row.proposalId, row]));
}

/** A letter to write: its key (proposal, decision version, letters version) and its text. */
export type NewLetter = Pick<
  typeof decisionLetters.$inferInsert,
  | 'proposalId'
  | 'decisionVersion'
  | 'lettersVersion'
  | 'outcome'
  | 'subject'
  | 'bodyText'
  | 'bodyHtml'
  | 'createdBy'
>;

/** Rows per INSERT: 8 values each, well under PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 1000;

/**
 * Writes the letters as `queued`, each once: a letter whose key is written already (a
 * second release, another process) is left as it is. The ids of those written now.
 */
export async function insertLetters(
  tx: Tx,
  letters: readonly NewLetter[],
  now: Date,
): Promise<number[]> {
  const ids: number[] = [];
  for (let at = 0; at < letters.length; at += INSERT_BATCH) {
    const written = await tx
      .insert(decisionLetters)
      .values(
        letters
          .slice(at, at + INSERT_BATCH)
          .map((letter) => ({ ...letter, state: 'queued' as const, createdAt: now })),
      )
      .onConflictDoNothing({
        target: [
          decisionLetters.proposalId,
          decisionLetters.decisionVersion,
          decisionLetters.lettersVersion,
        ],
      })
      .returning({ id: decisionLetters.id });
    ids.push(...written.map((row) => row.id));
  }
  return ids;
}

/** A letter with what its job needs besides: its proposal's call, and the committee's name. */
export async function letterForJob(tx: Tx, letterId: number) {
  const [row] = await tx
    .select({
      letter: decisionLetters,
      callId: proposals.callId,
      authorId: proposals.authorId,
      committeeName: committees.name,
    })
    .from(decisionLetters)
    .innerJoin(proposals, eq(proposals.id, decisionLetters.proposalId))
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .innerJoin(committees, eq(committees.id, calls.committeeId))
    .where(eq(decisionLetters.id, letterId));
  return row;
}

/**
 * Whom a proposal's letter goes to: its author, and its collaborators in copy (by name,
 * as the proposal lists them). Accounts that are not active are left out.
 */
export async function recipientsOf(
  tx: Tx,
  proposalId: number,
): Promise<{ to: string | null; cc: string[] }> {
  const [author] = await tx
    .select({ email: users.email, isActive: users.isActive })
    .from(proposals)
    .innerJoin(users, eq(users.id, proposals.authorId))
    .where(eq(proposals.id, proposalId));
  const collaborators = await tx
    .select({ email: users.email })
    .from(proposalCollaborators)
    .innerJoin(users, eq(users.id, proposalCollaborators.userId))
    .where(and(eq(proposalCollaborators.proposalId, proposalId), eq(users.isActive, true)))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  return {
    to: author?.isActive ? author.email : null,
    cc: collaborators.map((row) => row.email),
  };
}
