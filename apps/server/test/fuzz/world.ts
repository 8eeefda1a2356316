import { and, eq, gte, lte } from 'drizzle-orm';
import { calls, committeeRoles, proposalReviewers, proposals, users } from '../../src/db/schema.js';
import { authenticateKey, issueToken } from '../../src/modules/auth/tokens.queries.js';
import { makeFormName, simpleSchema } from '../admin-fixtures.js';
import { assignReviewers, callPayload, makeProposal } from '../call-fixtures.js';
import { giveRole, makeCommittee, makeUser, type TestContext } from '../helpers.js';
import { makeProposalCall, makeProposalForms, type ProposalForms } from '../proposal-fixtures.js';
import type { Example } from './requests.js';

const DAY = 24 * 60 * 60 * 1000;

/** The callers whose tokens the fuzzer sends, so its requests reach the handlers. */
export const LOGGED_IN = ['admin', 'chair', 'author', 'reviewer'] as const;
export type LoggedIn = (typeof LOGGED_IN)[number];

/**
 * The world the fuzzer's requests act on: an admin; a chair of a committee with a call
 * open for submissions; an author with a draft proposal in it; a committee member
 * assigned to review a submitted proposal of a second call of that committee, in its
 * review window. Fuzzed requests that succeed can undo any of it (log out, delete the
 * draft, end a role), so `heal` puts back what is missing between requests.
 */
export class FuzzWorld {
  readonly tokens = {} as Record<LoggedIn, string>;
  readonly userIds = {} as Record<LoggedIn, number>;
  committeeId = 0;
  draftId = 0;
  submittedId = 0;
  /** The calls (and their proposal types) of the draft and of the proposal under review. */
  callId = 0;
  typeId = 0;
  reviewCallId = 0;
  reviewTypeId = 0;
  private forms!: ProposalForms;
  private formNameId = 0;

  private constructor(private readonly ctx: TestContext) {}

  static async build(ctx: TestContext): Promise<FuzzWorld> {
    const world = new FuzzWorld(ctx);
    const { app } = ctx;
    world.committeeId = (await makeCommittee(app, 'Fuzzing committee')).id;
    world.forms = await makeProposalForms(app);
    world.formNameId = (await makeFormName(app, { type: 0 })).id;
    for (const persona of LOGGED_IN) {
      const user = await makeUser(app, { isAdmin: persona === 'admin', firstName: persona });
      world.userIds[persona] = user.id;
      world.tokens[persona] = await issueToken(app.db, user.id, app.now());
    }
    await world.heal();
    return world;
  }

  private get admin() {
    return { id: this.userIds.admin, isAdmin: true };
  }

  /** Puts back whatever a successful request took from the world. Returns what it fixed. */
  async heal(): Promise<string[]> {
    const { app } = this.ctx;
    const now = app.now();
    const fixed: string[] = [];
    for (const persona of LOGGED_IN) {
      const id = this.userIds[persona];
      const [user] = await app.db.select().from(users).where(eq(users.id, id));
      if (
        !user!.isActive ||
        !user!.registrationComplete ||
        user!.isAdmin !== (persona === 'admin')
      ) {
        await app.db
          .update(users)
          .set({ isActive: true, registrationComplete: true, isAdmin: persona === 'admin' })
          .where(eq(users.id, id));
        fixed.push(`${persona}'s account`);
      }
      if (!(await authenticateKey(app.db, this.tokens[persona], app.config.session, now))) {
        this.tokens[persona] = await issueToken(app.db, id, now);
        fixed.push(`${persona}'s token`);
      }
    }
    for (const [persona, role] of [
      ['chair', 'CHAIR'],
      ['reviewer', 'MEMBER'],
    ] as const) {
      const current = await app.db
        .select({ id: committeeRoles.id })
        .from(committeeRoles)
        .where(
          and(
            eq(committeeRoles.userId, this.userIds[persona]),
            eq(committeeRoles.committeeId, this.committeeId),
            eq(committeeRoles.role, role),
            lte(committeeRoles.commencement, now),
            gte(committeeRoles.termination, now),
          ),
        );
      if (current.length === 0) {
        await giveRole(app, this.userIds[persona], this.committeeId, role, now);
        fixed.push(`${persona}'s role`);
      }
    }
    if (!(await this.draftIsUsable())) {
      const { callId, typeId } = await makeProposalCall(app, {
        committeeId: this.committeeId,
        forms: this.forms,
        admin: this.admin,
      });
      this.draftId = (
        await makeProposal(app, { callId, proposalTypeId: typeId, authorId: this.userIds.author })
      ).id;
      Object.assign(this, { callId, typeId });
      fixed.push('the draft');
    }
    if (!(await this.reviewIsUsable())) {
      const { callId, typeId } = await makeProposalCall(app, {
        committeeId: this.committeeId,
        forms: this.forms,
        admin: this.admin,
        opensDaysAgo: 9,
      });
      this.submittedId = (
        await makeProposal(app, {
          callId,
          proposalTypeId: typeId,
          authorId: this.userIds.author,
          stateVal: 1,
        })
      ).id;
      await assignReviewers(app, this.submittedId, [this.userIds.reviewer]);
      Object.assign(this, { reviewCallId: callId, reviewTypeId: typeId });
      fixed.push('the proposal under review');
    }
    return fixed;
  }

  /**
   * Valid bodies for the routes whose random valid-shaped bodies rarely get past the
   * rules (ids that belong together, dates in order), built from the world as it is now,
   * so the mutations start from requests that would succeed.
   */
  examples(): Record<string, Example> {
    const now = this.ctx.app.now();
    const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString();
    return {
      'POST /api/v1/new_call/': {
        as: 'chair',
        body: () => callPayload(this.committeeId, this.forms.review, now),
      },
      'POST /api/v1/update_proposal_name/': {
        as: 'author',
        body: () => ({
          callId: this.callId,
          isNew: false,
          proposalId: this.draftId,
          name: 'Fuzzed name',
          type: this.typeId,
        }),
      },
      'POST /api/v1/proposal_responses/': {
        as: 'author',
        body: () => ({
          call: this.callId,
          proposalTypeId: this.typeId,
          proposal: this.draftId,
          new: false,
          hash: 7,
          formId: this.forms.project,
          index: 0,
          data: { title: 'Fuzzed', summary: 'text', contact: 'a@example.org' },
        }),
      },
      'POST /api/v1/review_responses/': {
        as: 'reviewer',
        body: () => ({
          call: this.reviewCallId,
          proposal: this.submittedId,
          reviewId: null,
          formId: this.forms.review.review,
          hash: 7,
          data: { title: 'Fine', score: 3 },
        }),
      },
      'POST /api/v1/forms/': {
        as: 'admin',
        body: () => ({
          isNew: true,
          formId: null,
          name: this.formNameId,
          version: 'fuzzed',
          jsonSchema: simpleSchema,
          uiSchema: {},
        }),
      },
      'POST /api/v1/new_extension/': {
        as: 'chair',
        body: () => ({
          callId: this.callId,
          user: this.userIds.author,
          commencement: at(-1),
          termination: at(30),
        }),
      },
      'POST /api/v1/reviewers/': {
        as: 'chair',
        body: () => ({
          proposalId: this.submittedId,
          userId: this.userIds.reviewer,
        }),
      },
      'POST /api/v1/proposal_state/': {
        as: 'author',
        body: () => ({ proposalId: this.draftId, state: 1 }),
      },
      'POST /api/v1/update_decision_summary/': {
        as: 'chair',
        body: () => ({
          proposalId: this.submittedId,
          summary: '<p>Funded.</p>',
          version: 0,
        }),
      },
      'POST /api/v1/roles/:userId/': {
        as: 'admin',
        body: () => ({
          committeeId: this.committeeId,
          role: 'MEMBER',
          commencement: at(-1),
          termination: at(100),
        }),
      },
    };
  }

  /** The author's draft is there, still a draft, in a call still open for submissions. */
  private async draftIsUsable(): Promise<boolean> {
    if (!this.draftId) return false;
    const now = this.ctx.app.now();
    const [row] = await this.ctx.app.db
      .select({
        stateVal: proposals.stateVal,
        authorId: proposals.authorId,
        open: calls.commencement,
        close: calls.termination,
        closed: calls.closed,
      })
      .from(proposals)
      .innerJoin(calls, eq(calls.id, proposals.callId))
      .where(eq(proposals.id, this.draftId));
    return (
      !!row &&
      row.stateVal === 0 &&
      row.authorId === this.userIds.author &&
      !row.closed &&
      row.open <= now &&
      now < row.close
    );
  }

  /** The submitted proposal is there, submitted, in its review window, with its reviewer. */
  private async reviewIsUsable(): Promise<boolean> {
    if (!this.submittedId) return false;
    const now = this.ctx.app.now();
    const [row] = await this.ctx.app.db
      .select({
        stateVal: proposals.stateVal,
        open: calls.reviewCommencement,
        close: calls.reviewTermination,
        closed: calls.closed,
      })
      .from(proposals)
      .innerJoin(calls, eq(calls.id, proposals.callId))
      .where(eq(proposals.id, this.submittedId));
    if (!row || row.stateVal !== 1 || row.closed || !(row.open <= now && now < row.close))
      return false;
    const assigned = await this.ctx.app.db
      .select()
      .from(proposalReviewers)
      .where(
        and(
          eq(proposalReviewers.proposalId, this.submittedId),
          eq(proposalReviewers.userId, this.userIds.reviewer),
        ),
      );
    return assigned.length > 0;
  }
}
