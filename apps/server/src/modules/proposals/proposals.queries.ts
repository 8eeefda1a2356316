import {
  CALL_PROPOSALS_DEFAULT_SORT,
  MAX_PAGE_SIZE,
  parseSort,
  type ListQuery,
} from '@merit/contract';
import {
  facilitiesOf,
  LOCK_LEASE_MS,
  proposalListScope,
  storedOptions,
  type CommitteeActor,
  type FormType,
  type ProposalResource,
  type ResourceFormOptions,
  type ResourceValues,
  type Score,
  type TimeWindow,
} from '@merit/domain';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNull,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import {
  calls,
  extensions,
  formNames,
  forms,
  proposalCollaborators,
  proposalResponses,
  proposalReviewers,
  proposalSaves,
  proposalTypeForms,
  proposalTypes,
  proposals,
  reviews,
  users,
} from '../../db/schema.js';
import { offsetOf, orderOf } from '../../lib/pages.js';
import { reviewedSql, type CallRow } from '../calls/calls.queries.js';
import type { AnswerForm } from './proposal-answers.js';
import { containing, personNameSql, runNamed } from '../../lib/sql.js';
import {
  reviewersJsonSql,
  reviewScoresJsonSql,
  type ReviewerName,
} from '../reviews/reviews.queries.js';

export type ProposalRow = typeof proposals.$inferSelect;

/** Someone on a proposal, as it names them. */
export interface Person {
  id: number;
  name: string;
  email: string;
}

const nameOf = personNameSql;

const lockHolders = alias(users, 'lock_holders');
const collaboratorUsers = alias(users, 'collaborator_users');

/** Whether anyone has saved a review of the proposal in the FROM as `proposals`. */
const hasReviewsSql = sql<boolean>`exists (select 1 from "reviews" r where r."proposal_id" = "proposals"."id")`;

/**
 * Each proposal of a call with the mean of its reviews' scores, as the domain's
 * `proposalScores` works out its `result` (AVG leaves out reviews without a score), as
 * `"review_scores"."mean"`: one grouped scan to sort a whole call by, where a subquery
 * per proposal would look its reviews up ten thousand times.
 */
const reviewScoresOfCall = (callId: number) => sql`(
  select r."proposal_id", avg(r."score") as "mean"
  from "reviews" r inner join "proposals" p on p."id" = r."proposal_id"
  where p."call_id" = ${callId}
  group by r."proposal_id"
) as "review_scores"`;

/** The actor is the author or a collaborator of the proposal in the FROM as `proposals`. */
const ownSql = (actorId: number) => sql<boolean>`(
  "proposals"."author_id" = ${actorId}
  or exists (
    select 1 from "proposal_collaborators" pc
    where pc."proposal_id" = "proposals"."id" and pc."user_id" = ${actorId}
  )
)`;

/** Everything the rules and the detail need about one proposal, as one caller sees it. */
export interface LoadedProposal {
  proposal: ProposalRow;
  call: CallRow;
  typeName: string;
  author: Person;
  collaborators: Person[];
  /** Submitted and fully reviewed (ARCHITECTURE.md "Reviewed"); who may know is the presenter's. */
  reviewed: boolean;
  /** The proposal as `proposalPolicy` reads it for this caller. */
  resource: ProposalResource;
}

/** What a proposal's page shows besides the proposal: see `loadProposal`'s `page`. */
export interface ProposalPage {
  forms: TypeForm[];
  entries: SavedEntry[];
  reviewers: ReviewerName[];
  reviews: { score: number | null; scores: Score[] }[];
}

/**
 * The page's parts as JSON subqueries of the proposal in the FROM: its type's proposal
 * forms (as `proposalFormsOf`), its saved answers (as `responsesOf`), its reviewers and
 * review scores (whom they reach is the caller's to decide). Null unless asked for.
 */
function pageSql(wanted: boolean) {
  if (!wanted) {
    const none = sql<null>`null`;
    return { pageForms: none, pageEntries: none, pageReviewers: none, pageReviews: none };
  }
  return {
    pageForms: sql<TypeForm[]>`(
      select coalesce(json_agg(json_build_object('id', f."id", 'type', n."type")
        order by t."position"), '[]'::json)
      from "proposal_type_forms" t
      inner join "forms" f on f."id" = t."form_id"
      inner join "form_names" n on n."id" = f."form_name_id"
      where t."proposal_type_id" = ${proposals.proposalTypeId} and t."kind" = 'proposal')`,
    pageEntries: sql<SavedEntry[]>`(
      select coalesce(json_agg(json_build_object('formId', e."form_id",
          'index', e."entry_index", 'data', e."data")
        order by e."form_id", e."entry_index"), '[]'::json)
      from "proposal_responses" e
      where e."proposal_id" = ${proposals.id})`,
    pageReviewers: reviewersJsonSql(proposals.id),
    pageReviews: reviewScoresJsonSql(proposals.id),
  };
}

/**
 * The one loader every proposal route goes through: the proposal with its call, type,
 * author, collaborators, lock holder, the author's and the caller's extensions, and
 * whether reviews exist. With `forUpdate`, the proposal row stays locked until the
 * transaction ends, so the checks made on it hold for the change that follows (two saves,
 * a save and a submit, take turns). With `page`, the same query also reads what the
 * proposal's page shows (`ProposalPage`). Undefined when there is no such proposal.
 */
export async function loadProposal(
  tx: Tx,
  actor: CommitteeActor,
  id: number,
  options: { forUpdate?: boolean; page?: boolean } = {},
): Promise<(LoadedProposal & { page?: ProposalPage }) | undefined> {
  // One query, its people and windows as JSON: every proposal read and change starts
  // here, and under load each round trip to the database costs more than the SQL in it.
  const query = tx
    .select({
      proposal: proposals,
      call: calls,
      typeName: proposalTypes.name,
      authorName: nameOf(users),
      authorEmail: users.email,
      holderName: nameOf(lockHolders),
      hasReviews: hasReviewsSql,
      reviewed: reviewedSql,
      collaborators: sql<Person[]>`(
        select coalesce(json_agg(json_build_object('id', ${collaboratorUsers.id},
            'name', ${nameOf(collaboratorUsers)}, 'email', ${collaboratorUsers.email})
          order by ${collaboratorUsers.lastName}, ${collaboratorUsers.firstName},
            ${collaboratorUsers.id}), '[]'::json)
        from ${proposalCollaborators}
        inner join "users" "collaborator_users"
          on ${collaboratorUsers.id} = ${proposalCollaborators.userId}
        where ${proposalCollaborators.proposalId} = ${proposals.id})`,
      windows: sql<{ userId: number; commencement: string; termination: string }[]>`(
        select coalesce(json_agg(json_build_object('userId', ${extensions.userId},
            'commencement', ${extensions.commencement},
            'termination', ${extensions.termination})), '[]'::json)
        from ${extensions}
        where ${extensions.callId} = ${proposals.callId}
          and ${extensions.userId} in (${proposals.authorId}, ${actor.id}::int))`,
      reviewerIds: sql<number[]>`(
        select coalesce(json_agg(${proposalReviewers.userId} order by ${proposalReviewers.userId}),
          '[]'::json)
        from ${proposalReviewers}
        where ${proposalReviewers.proposalId} = ${proposals.id})`,
      actorHasReview: sql<boolean>`exists (
        select 1 from ${reviews}
        where ${reviews.proposalId} = ${proposals.id} and ${reviews.reviewerId} = ${actor.id}::int)`,
      ...pageSql(options.page ?? false),
    })
    .from(proposals)
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
    .innerJoin(users, eq(users.id, proposals.authorId))
    .leftJoin(lockHolders, eq(lockHolders.id, proposals.lockHolderId))
    .where(eq(proposals.id, id));
  const shape = `${options.forUpdate ? '_for_update' : ''}${options.page ? '_page' : ''}`;
  const [row] = await runNamed(
    `load_proposal${shape}`,
    options.forUpdate ? query.for('update', { of: proposals }) : query,
  );
  if (!row) return undefined;
  const { proposal, call, collaborators } = row;
  const windows = row.windows.map((w) => ({
    userId: w.userId,
    commencement: new Date(w.commencement),
    termination: new Date(w.termination),
  }));
  const windowsOf = (userId: number): TimeWindow[] => windows.filter((w) => w.userId === userId);
  const { lockHolderId, lockExpiresAt } = proposal;
  return {
    proposal,
    call,
    typeName: row.typeName,
    author: { id: proposal.authorId, name: row.authorName, email: row.authorEmail },
    collaborators,
    reviewed: Boolean(row.reviewed),
    resource: {
      call,
      authorId: proposal.authorId,
      collaboratorIds: collaborators.map((c) => c.id),
      stateVal: proposal.stateVal,
      authorExtensions: windowsOf(proposal.authorId),
      actorExtensions: windowsOf(actor.id),
      lock:
        lockHolderId !== null && lockExpiresAt !== null
          ? { holderId: lockHolderId, holderName: row.holderName ?? '', expiresAt: lockExpiresAt }
          : null,
      hasReviews: Boolean(row.hasReviews),
      reviewerIds: row.reviewerIds,
      actorHasReview: Boolean(row.actorHasReview),
    },
    ...(options.page
      ? {
          page: {
            forms: row.pageForms ?? [],
            entries: row.pageEntries ?? [],
            reviewers: row.pageReviewers ?? [],
            reviews: row.pageReviews ?? [],
          },
        }
      : {}),
  };
}

/**
 * The call row, shared-locked until the transaction ends: a proposal created under it
 * sees the call's types and forms as they are, and a chair's edit of the call (which
 * locks it FOR UPDATE) waits until the proposal exists, then finds its type pinned.
 */
export async function shareCall(tx: Tx, id: number): Promise<CallRow | undefined> {
  const [row] = await tx.select().from(calls).where(eq(calls.id, id)).for('share');
  return row;
}

export async function typeOfCall(tx: Tx, callId: number, typeId: number) {
  const [row] = await tx
    .select({ id: proposalTypes.id })
    .from(proposalTypes)
    .where(and(eq(proposalTypes.id, typeId), eq(proposalTypes.callId, callId)));
  return row;
}

export async function insertProposal(
  tx: Tx,
  values: { callId: number; proposalTypeId: number; authorId: number; name: string; now: Date },
): Promise<ProposalRow> {
  const { now, ...rest } = values;
  const [row] = await tx
    .insert(proposals)
    .values({ ...rest, stateVal: 0, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/** lastModified moves with every change to the proposal, its answers or its people. */
/**
 * Marks a change to the proposal (lastModified) by `actorId`; when they hold the lock,
 * the change also renews its lease, so someone saving busily never loses it between
 * the editor's lock polls, which restart after each save (spec section 4).
 */
export async function touchProposal(
  tx: Tx,
  id: number,
  actorId: number,
  now: Date,
  changes: { name?: string } = {},
) {
  await runNamed(
    changes.name === undefined ? 'touch_proposal' : 'touch_proposal_name',
    tx
      .update(proposals)
      .set({
        ...changes,
        updatedAt: now,
        lockExpiresAt: sql`case when ${proposals.lockHolderId} = ${actorId}
          then ${new Date(now.getTime() + LOCK_LEASE_MS).toISOString()}::timestamptz
          else ${proposals.lockExpiresAt} end`,
      })
      .where(eq(proposals.id, id)),
  );
}

// --- Forms and answers ----------------------------------------------------------------

/** A proposal form of a type: its id and form type (one entry or several). */
export interface TypeForm {
  id: number;
  type: FormType;
}

/** The proposal forms of a type, in the call's order. */
export async function proposalFormsOf(tx: Tx, proposalTypeId: number): Promise<TypeForm[]> {
  const rows = await runNamed(
    'proposal_forms_of_type',
    tx
      .select({ id: forms.id, type: formNames.type })
      .from(proposalTypeForms)
      .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
      .innerJoin(formNames, eq(formNames.id, forms.formNameId))
      .where(
        and(
          eq(proposalTypeForms.proposalTypeId, proposalTypeId),
          eq(proposalTypeForms.kind, 'proposal'),
        ),
      )
      .orderBy(asc(proposalTypeForms.position)),
  );
  return rows.map((r) => ({ ...r, type: r.type as FormType }));
}

/** The schemas that answers to these forms are checked against. */
export async function answerFormsOf(tx: Tx, ids: number[]): Promise<Map<number, AnswerForm>> {
  if (ids.length === 0) return new Map();
  // One array parameter, not a list of them: one SQL text however many forms, so named.
  const rows = await runNamed(
    'answer_forms',
    tx
      .select({
        id: forms.id,
        jsonSchema: forms.jsonSchema,
        uiSchema: forms.uiSchema,
        updatedAt: forms.updatedAt,
      })
      .from(forms)
      .where(sql`${forms.id} = any(${sql.param(ids)}::int[])`),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export interface SavedEntry {
  formId: number;
  index: number;
  data: Record<string, unknown>;
}

/** Every saved answer of a proposal, by form and then entry, in index order. */
export async function responsesOf(tx: Tx, proposalId: number): Promise<SavedEntry[]> {
  return tx
    .select({
      formId: proposalResponses.formId,
      index: proposalResponses.entryIndex,
      data: proposalResponses.data,
    })
    .from(proposalResponses)
    .where(eq(proposalResponses.proposalId, proposalId))
    .orderBy(asc(proposalResponses.formId), asc(proposalResponses.entryIndex));
}

export async function entryCount(tx: Tx, proposalId: number, formId: number): Promise<number> {
  const [row] = await runNamed(
    'entry_count',
    tx
      .select({ n: count() })
      .from(proposalResponses)
      .where(
        and(eq(proposalResponses.proposalId, proposalId), eq(proposalResponses.formId, formId)),
      ),
  );
  return row?.n ?? 0;
}

export interface SaveKey {
  proposalId: number;
  formId: number;
  index: number;
  hash: number;
}

/**
 * Records that the save `key` is applied; false when it was already (a retry of a save
 * that succeeded), and then nothing else may change.
 */
export async function recordSave(tx: Tx, key: SaveKey, now: Date): Promise<boolean> {
  const rows = await runNamed(
    'record_save',
    tx
      .insert(proposalSaves)
      .values({
        proposalId: key.proposalId,
        formId: key.formId,
        entryIndex: key.index,
        hash: key.hash,
        savedAt: now,
      })
      .onConflictDoNothing()
      .returning({ hash: proposalSaves.hash }),
  );
  return rows.length > 0;
}

/**
 * The actor's proposal in this call on which this very save (form, entry, hash) was
 * applied already: a `new: true` save retried after its answer was lost must not create
 * a second proposal.
 */
export async function proposalOfRetriedSave(
  tx: Tx,
  input: { callId: number; authorId: number; formId: number; index: number; hash: number },
): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: proposals.id })
    .from(proposalSaves)
    .innerJoin(proposals, eq(proposals.id, proposalSaves.proposalId))
    .where(
      and(
        eq(proposals.callId, input.callId),
        eq(proposals.authorId, input.authorId),
        eq(proposalSaves.formId, input.formId),
        eq(proposalSaves.entryIndex, input.index),
        eq(proposalSaves.hash, input.hash),
      ),
    )
    .limit(1);
  return row?.id;
}

export async function writeEntry(
  tx: Tx,
  entry: SavedEntry & { proposalId: number; by: number; now: Date },
) {
  await runNamed(
    'write_entry',
    tx
      .insert(proposalResponses)
      .values({
        proposalId: entry.proposalId,
        formId: entry.formId,
        entryIndex: entry.index,
        data: entry.data,
        updatedAt: entry.now,
        updatedBy: entry.by,
      })
      .onConflictDoUpdate({
        target: [
          proposalResponses.proposalId,
          proposalResponses.formId,
          proposalResponses.entryIndex,
        ],
        set: { data: entry.data, updatedAt: entry.now, updatedBy: entry.by },
      }),
  );
}

/**
 * Removes entry `index` of a multi-entry form and moves the later ones up one. The later
 * entries are taken out and put back renumbered: renumbering them in place would pass
 * through two rows with one index, which the unique index refuses mid-statement.
 * Returns the removed entry's answers, or undefined when there was no such entry.
 */
export async function removeEntry(
  tx: Tx,
  input: { proposalId: number; formId: number; index: number },
): Promise<Record<string, unknown> | undefined> {
  const taken = await tx
    .delete(proposalResponses)
    .where(
      and(
        eq(proposalResponses.proposalId, input.proposalId),
        eq(proposalResponses.formId, input.formId),
        gte(proposalResponses.entryIndex, input.index),
      ),
    )
    .returning();
  const removed = taken.find((r) => r.entryIndex === input.index);
  const later = taken.filter((r) => r.entryIndex > input.index);
  if (later.length > 0) {
    await tx
      .insert(proposalResponses)
      .values(later.map(({ id: _id, ...r }) => ({ ...r, entryIndex: r.entryIndex - 1 })));
  }
  return removed?.data;
}

// --- People -----------------------------------------------------------------------------

/** The active user with this collaborator hash. */
export async function userByHash(tx: Tx, hash: string) {
  const [row] = await tx
    .select({
      id: users.id,
      name: nameOf(users),
      email: users.email,
      firstName: users.firstName,
      username: users.username,
    })
    .from(users)
    .where(and(eq(users.hash, hash), eq(users.isActive, true)));
  return row;
}

export async function insertCollaborator(tx: Tx, proposalId: number, userId: number) {
  await tx.insert(proposalCollaborators).values({ proposalId, userId });
}

/** Removes a collaborator, and the editing lock with them if they hold it; false when they were none. */
export async function deleteCollaborator(tx: Tx, proposalId: number, userId: number) {
  const removed = await tx
    .delete(proposalCollaborators)
    .where(
      and(
        eq(proposalCollaborators.proposalId, proposalId),
        eq(proposalCollaborators.userId, userId),
      ),
    )
    .returning({ userId: proposalCollaborators.userId });
  if (removed.length === 0) return false;
  await releaseLock(tx, proposalId, userId);
  return true;
}

/** The people a proposal's mail goes to: its author and collaborators. */
export async function teamOf(tx: Tx, proposalId: number) {
  const author = tx
    .select({ email: users.email, firstName: users.firstName, username: users.username })
    .from(proposals)
    .innerJoin(users, eq(users.id, proposals.authorId))
    .where(eq(proposals.id, proposalId));
  const collaborators = tx
    .select({ email: users.email, firstName: users.firstName, username: users.username })
    .from(proposalCollaborators)
    .innerJoin(users, eq(users.id, proposalCollaborators.userId))
    .where(and(eq(proposalCollaborators.proposalId, proposalId), eq(users.isActive, true)));
  const [a, c] = await Promise.all([author, collaborators]);
  return [...a, ...c];
}

// --- State ------------------------------------------------------------------------------

/**
 * Moves the proposal from state `from` to `to`, only if it is still in `from`: of two
 * submits at the same moment one moves it and the other finds nothing to move.
 */
export async function changeStateVal(
  tx: Tx,
  id: number,
  from: number,
  to: number,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(proposals)
    .set({ stateVal: to, updatedAt: now })
    .where(and(eq(proposals.id, id), eq(proposals.stateVal, from)))
    .returning({ id: proposals.id });
  return rows.length > 0;
}

export async function deleteProposalRow(tx: Tx, id: number) {
  await tx.delete(proposals).where(eq(proposals.id, id));
}

// --- The lock ---------------------------------------------------------------------------

/**
 * Takes or renews the lease for `actorId` in one conditional UPDATE: only when nobody
 * holds it, the holder's lease has run out, or the actor holds it already. Of two callers
 * at the same moment, the row lock makes one wait and then see the other's lease, so
 * exactly one holds it, in any number of app processes.
 */
export async function takeLock(tx: Tx, id: number, actorId: number, now: Date): Promise<boolean> {
  const rows = await runNamed(
    'take_lock',
    tx
      .update(proposals)
      .set({ lockHolderId: actorId, lockExpiresAt: new Date(now.getTime() + LOCK_LEASE_MS) })
      .where(
        and(
          eq(proposals.id, id),
          or(
            isNull(proposals.lockHolderId),
            lte(proposals.lockExpiresAt, now),
            eq(proposals.lockHolderId, actorId),
          ),
        ),
      )
      .returning({ id: proposals.id }),
  );
  return rows.length > 0;
}

/** Lets go of the lease, if `userId` holds it. */
export async function releaseLock(tx: Tx, id: number, userId: number) {
  await runNamed(
    'release_lock',
    tx
      .update(proposals)
      .set({ lockHolderId: null, lockExpiresAt: null })
      .where(and(eq(proposals.id, id), eq(proposals.lockHolderId, userId))),
  );
}

/** Who holds a live lease on the proposal now, with their name; undefined for nobody. */
export async function currentLock(tx: Tx, id: number, now: Date) {
  const [row] = await runNamed(
    'current_lock',
    tx
      .select({ holderId: users.id, holder: nameOf(users) })
      .from(proposals)
      .innerJoin(users, eq(users.id, proposals.lockHolderId))
      .where(and(eq(proposals.id, id), sql`${proposals.lockExpiresAt} > ${now}`)),
  );
  return row;
}

// --- Lists ------------------------------------------------------------------------------

export interface CallProposalRow {
  id: number;
  name: string;
  proposalTypeId: number;
  proposalTypeName: string;
  author: string;
  authorId: number;
  stateVal: number;
  /** Reviewed, for a caller who may know it; false for everyone else. */
  reviewed: boolean;
  /** The caller is its author or a collaborator: nothing of its reviews reaches them. */
  own: boolean;
  updatedAt: Date;
}

/**
 * A chair's sort by one resource column (`sort=resource`): the call's resource forms, and
 * the column's facility and data field, which the service has checked are the call's.
 */
export interface ResourceSort {
  forms: readonly ResourceForm[];
  facility: string;
  field: string;
}

/**
 * Each proposal of a call with its amount in one resource column, as
 * `"resource_amounts"."amount"`: the sum of its entries' numbers in data field `field`,
 * over the entries of the forms that have that field and name facility `facility`, as the
 * domain's `resourceValues` adds them (chair-sort-export.api.test.ts holds the two to the
 * same order). A proposal without a number there has no row (N/A). One grouped scan of
 * the call's resource entries, as `reviewScoresOfCall` is for the score.
 */
function resourceAmountsOfCall(callId: number, sort: ResourceSort) {
  const withField = sort.forms.filter((form) => form.options.data_fields.includes(sort.field));
  if (withField.length === 0)
    return sql`(select null::int as "proposal_id", null::double precision as "amount" where false) as "resource_amounts"`;
  return sql`(
    select ${proposalResponses.proposalId} as "proposal_id",
      sum((${proposalResponses.data} ->> ${sort.field}::text)::double precision) as "amount"
    from ${proposalResponses} inner join "proposals" p on p."id" = ${proposalResponses.proposalId}
    where p."call_id" = ${callId}
      and ${inArray(
        proposalResponses.formId,
        withField.map((form) => form.id),
      )}
      and jsonb_typeof(${answer(sort.field)}) = 'number'
      and ${facilitySql(withField)} = ${sort.facility}::text
    group by ${proposalResponses.proposalId}
  ) as "resource_amounts"`;
}

/** A list of a call's proposals as one caller asks for it: its search and its sort. */
type CallProposalsListQuery = ListQuery & { resourceSort?: ResourceSort; typeId?: number };

/**
 * The proposals of a call, or of one of its types with `typeId` (the chair's export of
 * one type): every read of the export chooses its rows by this.
 */
const ofCall = (callId: number, typeId?: number) =>
  and(
    eq(proposals.callId, callId),
    typeId === undefined ? undefined : eq(proposals.proposalTypeId, typeId),
  );

/** The ids of the proposals of a call (of one of its types), as a subquery. */
const idsOfCall = (tx: Tx, callId: number, typeId?: number) =>
  tx.select({ id: proposals.id }).from(proposals).where(ofCall(callId, typeId));

/**
 * The proposals of a call the caller may see, searched and sorted, as a query still to
 * be paged, and its WHERE for the count. Which rows those are is the domain's
 * `proposalListScope` (the `view` rule for a whole call), turned into SQL here;
 * proposals-list.api.test.ts holds the two to the same answers. Per-proposal figures
 * join in as grouped subqueries on `proposals.id`, never a query per row.
 */
function callProposalsSelect(
  tx: Tx,
  actor: CommitteeActor,
  call: CallRow,
  query: CallProposalsListQuery,
  now: Date,
) {
  const scope = proposalListScope(actor, call, now);
  const own = ownSql(actor.id);
  const visible: Record<typeof scope.rows, SQL | undefined> = {
    all: undefined,
    submittedAndOwn: or(gte(proposals.stateVal, 1), own),
    own,
  };
  const reviewed = scope.reviewed
    ? sql<boolean>`(${reviewedSql} and not ${own})`
    : sql<boolean>`false`;
  const { key } = parseSort(query.sort);
  // The proposal's score (the `result`: the mean of its reviews' scores), only to sort
  // by, and only for those who may see it: for anyone else, and on a chair's own
  // proposals, every row sorts as having none. The scores join in only for that sort.
  const byScore = scope.reviewed && key === 'score';
  const score = byScore
    ? sql`(case when ${own} then null else "review_scores"."mean" end)`
    : sql`null::double precision`;
  // A resource column, likewise only for those who see the chair's columns. A chair's
  // own proposals sort by theirs too: the chair's list shows their resources (only their
  // reviews are kept from them), and the order tells nothing the column does not.
  const resourceSort = scope.reviewed && key === 'resource' ? query.resourceSort : undefined;
  const amount = resourceSort ? sql`"resource_amounts"."amount"` : sql`null::double precision`;
  const authorName = nameOf(users);
  const pattern = query.q ? containing(query.q) : null;
  const where = and(
    ofCall(call.id, query.typeId),
    visible[scope.rows],
    pattern
      ? or(
          ilike(proposals.name, pattern),
          ilike(proposalTypes.name, pattern),
          ilike(authorName, pattern),
        )
      : undefined,
  );
  const rows = tx
    .select({
      id: proposals.id,
      name: proposals.name,
      proposalTypeId: proposals.proposalTypeId,
      proposalTypeName: proposalTypes.name,
      author: authorName,
      authorId: proposals.authorId,
      stateVal: proposals.stateVal,
      reviewed,
      own,
      updatedAt: proposals.updatedAt,
    })
    .from(proposals)
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
    .innerJoin(users, eq(users.id, proposals.authorId))
    .$dynamic();
  if (byScore)
    rows.leftJoin(
      reviewScoresOfCall(call.id),
      sql`"review_scores"."proposal_id" = "proposals"."id"`,
    );
  if (resourceSort)
    rows.leftJoin(
      resourceAmountsOfCall(call.id, resourceSort),
      sql`"resource_amounts"."proposal_id" = "proposals"."id"`,
    );
  rows.where(where).orderBy(
    ...orderOf(
      query,
      {
        name: sql`lower(${proposals.name})`,
        type: sql`lower(${proposalTypes.name})`,
        author: sql`lower(${authorName})`,
        state: sql`case when ${reviewed} then 2 else ${proposals.stateVal} end`,
        lastModified: proposals.updatedAt,
        score,
        resource: amount,
      },
      proposals.id,
      ['score', 'resource'],
    ),
  );
  const counted = tx
    .select({ total: count() })
    .from(proposals)
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
    .innerJoin(users, eq(users.id, proposals.authorId))
    .where(where);
  return { rows, counted };
}

const rowOf = <T extends { reviewed: unknown; own: unknown }>(row: T) => ({
  ...row,
  reviewed: Boolean(row.reviewed),
  own: Boolean(row.own),
});

/**
 * One page of a call's proposals, of those the caller may see (`callProposalsSelect`):
 * two queries, the page and its count, whatever the page's size.
 */
export async function callProposalPage(
  tx: Tx,
  actor: CommitteeActor,
  call: CallRow,
  query: CallProposalsListQuery,
  now: Date,
): Promise<{ total: number; rows: CallProposalRow[] }> {
  const { rows, counted } = callProposalsSelect(tx, actor, call, query, now);
  const [total, page] = await Promise.all([
    counted,
    rows.limit(query.pageSize).offset(offsetOf(query)),
  ]);
  return { total: total[0]?.total ?? 0, rows: page.map(rowOf) };
}

/**
 * Every proposal of a call the caller may see (of one of its types with `typeId`), in the
 * list's default order (by name): its pages' rows in one query, for the chair's export.
 */
export async function callProposalRows(
  tx: Tx,
  actor: CommitteeActor,
  call: CallRow,
  now: Date,
  typeId?: number,
): Promise<CallProposalRow[]> {
  const query = {
    page: 1,
    pageSize: MAX_PAGE_SIZE,
    sort: CALL_PROPOSALS_DEFAULT_SORT,
    q: '',
    typeId,
  };
  const { rows } = callProposalsSelect(tx, actor, call, query, now);
  return (await rows).map(rowOf);
}

/** Each proposal's collaborators, and each author's extension windows on the call. */
export interface TeamsAndWindows {
  collaborators: Map<number, number[]>;
  windows: Map<number, TimeWindow[]>;
}

function teamsAndWindowsOf(
  team: { proposalId: number; userId: number }[],
  extended: ({ userId: number } & TimeWindow)[],
): TeamsAndWindows {
  const collaborators = new Map<number, number[]>();
  for (const row of team)
    collaborators.set(row.proposalId, [...(collaborators.get(row.proposalId) ?? []), row.userId]);
  const windows = new Map<number, TimeWindow[]>();
  for (const row of extended) windows.set(row.userId, [...(windows.get(row.userId) ?? []), row]);
  return { collaborators, windows };
}

const teamColumns = {
  proposalId: proposalCollaborators.proposalId,
  userId: proposalCollaborators.userId,
};
const windowColumns = {
  userId: extensions.userId,
  commencement: extensions.commencement,
  termination: extensions.termination,
};

/**
 * For a page of a call's proposals: each one's collaborators, and each author's extension
 * windows on the call, in two queries.
 */
export async function teamsAndWindows(
  tx: Tx,
  callId: number,
  proposalIds: number[],
  authorIds: number[],
): Promise<TeamsAndWindows> {
  const [team, extended] = await Promise.all([
    tx
      .select(teamColumns)
      .from(proposalCollaborators)
      .where(inArray(proposalCollaborators.proposalId, proposalIds)),
    tx
      .select(windowColumns)
      .from(extensions)
      .where(
        and(eq(extensions.callId, callId), inArray(extensions.userId, [...new Set(authorIds)])),
      ),
  ]);
  return teamsAndWindowsOf(team, extended);
}

/**
 * The same for every proposal of a call (of one of its types with `typeId`), chosen by
 * the call's id (no list of thousands of ids): the collaborators of its drafts, and every
 * extension on the call.
 */
export async function teamsAndWindowsOfCall(
  tx: Tx,
  callId: number,
  typeId?: number,
): Promise<TeamsAndWindows> {
  const [team, extended] = await Promise.all([
    tx
      .select(teamColumns)
      .from(proposalCollaborators)
      .innerJoin(proposals, eq(proposals.id, proposalCollaborators.proposalId))
      .where(and(ofCall(callId, typeId), eq(proposals.stateVal, 0))),
    tx.select(windowColumns).from(extensions).where(eq(extensions.callId, callId)),
  ]);
  return teamsAndWindowsOf(team, extended);
}

// --- Resources --------------------------------------------------------------------------

/** The resource forms (types 4 and 5): what the chair's resource columns add up. */
const RESOURCE_FORM_TYPES = [4, 5];

/** A saved entry of a resource form, with the form's options, of one proposal. */
export interface ResourceEntryRow {
  proposalId: number;
  options: ResourceFormOptions;
  data: Record<string, unknown>;
}

/** The saved entries of the resource forms of some proposals, in one query. */
export async function resourceEntriesOf(
  tx: Tx,
  proposalIds: number[],
): Promise<ResourceEntryRow[]> {
  if (proposalIds.length === 0) return [];
  return resourceEntriesWhere(tx, inArray(proposalResponses.proposalId, proposalIds));
}

/**
 * The saved entries of the resource forms of every proposal of a call (of one of its
 * types with `typeId`), in one query.
 */
export async function resourceEntriesOfCall(
  tx: Tx,
  callId: number,
  typeId?: number,
): Promise<ResourceEntryRow[]> {
  return resourceEntriesWhere(
    tx,
    inArray(proposalResponses.proposalId, idsOfCall(tx, callId, typeId)),
  );
}

async function resourceEntriesWhere(tx: Tx, ofProposals: SQL): Promise<ResourceEntryRow[]> {
  const rows = await tx
    .select({
      proposalId: proposalResponses.proposalId,
      options: forms.options,
      data: proposalResponses.data,
    })
    .from(proposalResponses)
    .innerJoin(forms, eq(forms.id, proposalResponses.formId))
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(and(ofProposals, inArray(formNames.type, RESOURCE_FORM_TYPES)))
    .orderBy(
      asc(proposalResponses.proposalId),
      asc(proposalResponses.formId),
      asc(proposalResponses.entryIndex),
    );
  return rows.map((r) => ({
    proposalId: r.proposalId,
    options: storedOptions<ResourceFormOptions>(r.options),
    data: r.data,
  }));
}

/** A resource form of a call, with its options. */
export interface ResourceForm {
  id: number;
  options: ResourceFormOptions;
}

/** The resource forms of a call's proposal types, with their options, each once. */
export async function resourceFormsOfCall(tx: Tx, callId: number): Promise<ResourceForm[]> {
  const rows = await tx
    .select({ id: forms.id, options: forms.options })
    .from(proposalTypeForms)
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposalTypeForms.proposalTypeId))
    .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(
      and(
        eq(proposalTypes.callId, callId),
        eq(proposalTypeForms.kind, 'proposal'),
        inArray(formNames.type, RESOURCE_FORM_TYPES),
      ),
    );
  // Deduplicated here: a form may serve several types, and json has no equality for DISTINCT.
  const byId = new Map(rows.map((r) => [r.id, storedOptions<ResourceFormOptions>(r.options)]));
  return [...byId].map(([id, options]) => ({ id, options }));
}

/** An entry's answer to `field`, as JSON (the name is a parameter, never SQL). */
const answer = (field: string) => sql`(${proposalResponses.data} -> ${field}::text)`;

/**
 * The facility of a resource entry in SQL, as the domain's `facilityOf` reads it: the
 * text (or number) in its form's facility field, else the unnamed facility ''.
 */
function facilitySql(resourceForms: readonly ResourceForm[]) {
  const cases = resourceForms.map(({ id, options }) => {
    const field = options.institution_field;
    if (field === null) return sql`when ${id}::int then ''`;
    return sql`when ${id}::int then (case when jsonb_typeof(${answer(field)}) in ('string', 'number')
      then ${proposalResponses.data} ->> ${field}::text else '' end)`;
  });
  return sql<string>`(case ${proposalResponses.formId} ${sql.join(cases, sql` `)} else '' end)`;
}

/**
 * A call's resource totals, summed in the database (10,000 proposals must not travel to
 * the app to be added up): per facility and data field, the sum over submitted
 * proposals, as the domain's `resourceTotals` adds them; chair-view.api.test.ts holds
 * the two to the same answers. Also names every facility any proposal names, drafts'
 * too, for the list's columns. The call's resource forms are read first, so the sums are
 * plain columns of one grouped scan (one per data field), not a JSON function per entry;
 * a caller that has read them already passes them in. With `typeId`, the same over that
 * type's proposals only (the chair's export of one type).
 */
export async function resourceTotalsOf(
  tx: Tx,
  callId: number,
  knownForms?: readonly ResourceForm[],
  typeId?: number,
): Promise<{ totals: ResourceValues; facilities: string[] }> {
  const resourceForms = knownForms ?? (await resourceFormsOfCall(tx, callId));
  if (resourceForms.length === 0) return { totals: {}, facilities: [] };
  const submitted = sql`${proposals.stateVal} >= 1`;
  const formsOfField = new Map<string, number[]>();
  for (const form of resourceForms)
    for (const field of form.options.data_fields)
      formsOfField.set(field, [...(formsOfField.get(field) ?? []), form.id]);
  const fields = [...formsOfField.keys()];
  const sums = Object.fromEntries(
    fields.map((field, i) => [
      `sum${i}`,
      sql<number | null>`sum((${proposalResponses.data} ->> ${field}::text)::double precision)
        filter (where ${submitted}
          and ${inArray(proposalResponses.formId, formsOfField.get(field)!)}
          and jsonb_typeof(${answer(field)}) = 'number')`,
    ]),
  );
  const rows = await tx
    .select({
      facility: facilitySql(resourceForms),
      counted: sql<boolean>`bool_or(${submitted})`,
      ...sums,
    })
    .from(proposalResponses)
    .innerJoin(proposals, eq(proposals.id, proposalResponses.proposalId))
    .where(
      and(
        ofCall(callId, typeId),
        inArray(
          proposalResponses.formId,
          resourceForms.map((f) => f.id),
        ),
      ),
    )
    // By position: the facility expression holds parameters, so it cannot be repeated.
    .groupBy(sql`1`);
  const totals: ResourceValues = {};
  for (const row of rows) {
    if (!row.counted) continue;
    const byField = (totals[row.facility] ??= {});
    const columns: Record<string, unknown> = row;
    fields.forEach((field, i) => {
      const total = columns[`sum${i}`];
      if (total !== null && total !== undefined) byField[field] = Number(total);
    });
  }
  const named: ResourceValues = Object.fromEntries(rows.map((r) => [r.facility, {}]));
  return { totals, facilities: facilitiesOf([named]) };
}

// --- Decisions ---------------------------------------------------------------------------

/**
 * Stores a proposal's decision summary. lastModified stays: the decision is the chairs',
 * not a change to the authors' work, and a moving date would tell authors a decision is
 * being written before the call closes.
 */
export async function writeDecisionSummary(tx: Tx, id: number, summary: string) {
  await tx.update(proposals).set({ decisionSummary: summary }).where(eq(proposals.id, id));
}

/**
 * Everyone a call's decisions go to when it closes: the author and each active
 * collaborator of every submitted proposal, one row per person and proposal.
 */
export async function submittedTeamsOf(tx: Tx, callId: number) {
  const recipient = {
    proposalId: proposals.id,
    proposalName: proposals.name,
    typeName: proposalTypes.name,
    email: users.email,
    firstName: users.firstName,
    username: users.username,
  };
  const submitted = and(eq(proposals.callId, callId), gte(proposals.stateVal, 1));
  const [authors, collaborators] = await Promise.all([
    tx
      .select(recipient)
      .from(proposals)
      .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
      .innerJoin(users, eq(users.id, proposals.authorId))
      .where(and(submitted, eq(users.isActive, true)))
      .orderBy(asc(proposals.id)),
    tx
      .select(recipient)
      .from(proposalCollaborators)
      .innerJoin(proposals, eq(proposals.id, proposalCollaborators.proposalId))
      .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
      .innerJoin(users, eq(users.id, proposalCollaborators.userId))
      .where(and(submitted, eq(users.isActive, true)))
      .orderBy(asc(proposals.id), asc(users.id)),
  ]);
  return [...authors, ...collaborators];
}

/** The caller's own proposals, as author or collaborator, across calls, newest change first. */
export async function myProposals(tx: Tx, actorId: number) {
  return tx
    .select({
      id: proposals.id,
      callId: proposals.callId,
      callName: calls.name,
      name: proposals.name,
      proposalTypeName: proposalTypes.name,
      stateVal: proposals.stateVal,
      updatedAt: proposals.updatedAt,
      authorId: proposals.authorId,
    })
    .from(proposals)
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
    .where(ownSql(actorId))
    .orderBy(desc(proposals.updatedAt), desc(proposals.id));
}
