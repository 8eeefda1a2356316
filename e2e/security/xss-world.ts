/**
 * What the XSS journey needs, made through the server's public API as the people would
 * have made it: every payload of the corpus in every place a person can write text that
 * others see. The coverage, chosen so the journey runs in a few minutes:
 *
 * - Rich text, one payload at a time: each payload is the description of a call of its
 *   own, so a payload that swallows what follows it (an unclosed <style>, <textarea>,
 *   <noscript>) hides no other payload.
 * - Rich text, all at once: the main call's description holds every payload, and the
 *   decision summaries of the first proposals hold them in batches of BATCH.
 * - Names: each payload names a committee, a form, a call, that call's proposal type and
 *   a proposal of the main call (cut to each name's limit, marker and tag first).
 * - Form answers: each proposal's title answer is its payload; its abstract holds its
 *   batch; the review's strengths hold every payload. The proposal form's own text (a
 *   question's description, with markdown on) holds the first batch.
 * - File names: each payload is the name of a file attached to one of the drafts.
 * - People's names refuse < > " = ( ) and the other restricted characters (spec section
 *   5), so no HTML payload can be a name; the author's and reviewer's names start with @
 *   and +, which the downloads must not take for formulas.
 * - Downloads: proposals named by the formula payloads, and a review answer that is one.
 */
import { adminCredentials } from '../fixtures';
import {
  api,
  createCommittee,
  createFormFrom,
  daysFromNow,
  giveRole,
  logInApi,
  registerVerifiedUser,
  type CallDates,
  type FormDefinition,
  type TestUser,
} from '../calls-support/api';
import { e2eEnv } from '../env';
import { makePdf } from '../files-support/pdf';
import { createProposal, saveAnswers } from '../proposals-support/api';
import { SCORES } from '../reviews-support/world';
import { FORMULA_PAYLOADS, markerOf, PAYLOADS, type Payload } from './xss-payloads';

/** How many payloads a batched field (a decision summary, an abstract) holds. */
export const BATCH = 10;

/** The corpus in batches of BATCH, in order. */
export const BATCHES: Payload[][] = Array.from(
  { length: Math.ceil(PAYLOADS.length / BATCH) },
  (_, index) => PAYLOADS.slice(index * BATCH, (index + 1) * BATCH),
);

/** Rich text holding `payloads`, each after its marker in a paragraph of its own. */
export const richText = (payloads: readonly Payload[]) =>
  payloads.map((payload) => `<p>${markerOf(payload)}</p>${payload.text}`).join('\n');

/** Plain text holding `payloads`, one a line, each after its marker. */
export const plainText = (payloads: readonly Payload[]) =>
  payloads.map((payload) => `${markerOf(payload)} ${payload.text}`).join('\n');

/** A name made of a payload: its marker, the run's tag, then as much of it as fits. */
const nameOf = (payload: Payload, tag: string, max: number) =>
  `${markerOf(payload)}${tag} ${payload.text}`.slice(0, max);

/** Limits of spec section 5 (MAX_LENGTHS of @merit/domain) for the names used here. */
const MAX = { committee: 100, form: 200, call: 255, type: 50, proposal: 100 };

/** The proposal form: a title, and an abstract whose description is shown as markdown. */
function proposalForm(): FormDefinition {
  return {
    type: 0,
    jsonSchema: {
      type: 'object',
      required: ['title'],
      properties: {
        title: { type: 'string', title: 'Project title' },
        abstract: {
          type: 'string',
          title: 'Abstract',
          // The form's own text is an administrator's, and markdown may hold HTML.
          description: plainText(BATCHES[0]!),
        },
      },
    },
    uiSchema: {
      'ui:order': ['title', 'abstract'],
      abstract: { 'ui:widget': 'textarea', 'ui:enableMarkdownInDescription': true },
    },
    options: null,
  };
}

const REVIEW_FORM: FormDefinition = {
  type: 2,
  jsonSchema: {
    type: 'object',
    required: ['strengths'],
    properties: {
      strengths: { type: 'string', title: 'Strengths' },
      weaknesses: { type: 'string', title: 'Weaknesses' },
    },
  },
  uiSchema: {
    'ui:order': ['strengths', 'weaknesses'],
    strengths: { 'ui:widget': 'textarea' },
    weaknesses: { 'ui:widget': 'textarea' },
  },
  options: null,
};

export interface XssProposal {
  id: number;
  name: string;
  payload: Payload | null;
}

export interface XssWorld {
  tag: string;
  adminToken: string;
  author: TestUser;
  reviewer: TestUser;
  main: { id: number; name: string; committeeId: number };
  /** The call of each payload, whose description is that payload alone. */
  payloadCalls: { id: number; payload: Payload }[];
  committeeIds: number[];
  proposalFormId: number;
  /**
   * The drafts the author keeps editing, with a file named by each payload between them
   * (a proposal holds at most 100 files: files.service.ts).
   */
  drafts: XssProposal[];
  /** Proposals of the main call, in payload order; the first BATCHES.length have decision summaries. */
  proposals: XssProposal[];
  /** Proposals named by the formula payloads, in order. */
  formulaProposals: XssProposal[];
  /** The proposal the reviewer reviewed. */
  reviewed: XssProposal;
  reviewId: number;
  /** Moves the main call's review window into the past, so it may be closed. */
  endReview: () => Promise<void>;
}

/** Attaches a PDF called `name` to a proposal, as Manage Uploaded Files does. */
async function attachFile(token: string, proposalId: number, name: string): Promise<void> {
  const form = new FormData();
  form.set('proposal', String(proposalId));
  form.set('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), name);
  const response = await fetch(`${e2eEnv('baseUrl')}/api/v1/proposal_file/`, {
    method: 'POST',
    headers: { authorization: `Token ${token}` },
    body: form,
  });
  if (!response.ok) {
    throw new Error(`Attaching “${name}” answered ${response.status}: ${await response.text()}`);
  }
}

const PDF = makePdf('A file with a name to be careful with');

/** Runs `task` over `items`, `width` at a time: quick, without flooding one server. */
/** Files per draft: under the product's 100 files a proposal may hold. */
const FILES_PER_DRAFT = 80;

async function inTurn<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!);
      }
    }),
  );
  return results;
}

export async function createXssWorld(): Promise<XssWorld> {
  const tag = Math.random().toString(36).slice(2, 8);
  const adminToken = await logInApi(adminCredentials());
  const [author, reviewer, proposalFormDef, review, scores] = await Promise.all([
    registerVerifiedUser('@Ada', `-Author${tag}`, { username: `ada-${tag}` }),
    registerVerifiedUser('+Rita', `Reviewer${tag}`, { username: `rita-${tag}` }),
    createFormFrom(adminToken, `${markerOf(PAYLOADS[0]!)}${tag} Proposal`, proposalForm()),
    createFormFrom(adminToken, `Review ${tag}`, REVIEW_FORM),
    createFormFrom(adminToken, `Scores ${tag}`, SCORES),
  ]);

  // A committee and a form name for each payload: the admin lists show them all.
  const committeeIds = await inTurn(PAYLOADS, 4, (payload) =>
    createCommittee(adminToken, nameOf(payload, tag, MAX.committee)),
  );
  await inTurn(PAYLOADS, 4, (payload) =>
    api('POST', '/form_names/', {
      token: adminToken,
      body: {
        name: `xss-${tag}-${payload.id}`,
        display_name: nameOf(payload, tag, MAX.form),
        type: 0,
      },
    }),
  );
  const mainCommitteeId = committeeIds[0]!;
  await giveRole(adminToken, reviewer.id, mainCommitteeId, 'MEMBER');

  const openNow: CallDates = {
    openDateTime: daysFromNow(-3, 9),
    closeDateTime: daysFromNow(30, 17),
    reviewOpenDateTime: daysFromNow(31, 9),
    reviewCloseDateTime: daysFromNow(60, 17),
  };
  const callBody = (call: {
    id: number | null;
    committee: number;
    name: string;
    description: string;
    typeName: string;
    typeId: number | null;
    dates: CallDates;
  }) => ({
    new: call.id === null,
    id: call.id,
    committee: call.committee,
    name: call.name,
    openDateTime: call.dates.openDateTime.toISOString(),
    closeDateTime: call.dates.closeDateTime.toISOString(),
    reviewOpenDateTime: call.dates.reviewOpenDateTime.toISOString(),
    reviewCloseDateTime: call.dates.reviewCloseDateTime.toISOString(),
    isReviewOpen: false,
    description: call.description,
    proposalTypes: [
      {
        typeId: call.typeId,
        typeName: call.typeName,
        proposalForms: [proposalFormDef.id],
        reviewForms: [review.id, scores.id],
      },
    ],
  });

  // The main call: every payload in its description at once.
  const mainName = `${nameOf(PAYLOADS[1]!, tag, 200)} main`;
  const mainType = nameOf(PAYLOADS[2]!, tag, MAX.type);
  const mainBody = (typeId: number | null, dates: CallDates) =>
    callBody({
      id: null,
      committee: mainCommitteeId,
      name: mainName,
      description: richText(PAYLOADS),
      typeName: mainType,
      typeId,
      dates,
    });
  const { id: mainId } = await api<{ id: number }>('POST', '/new_call/', {
    token: adminToken,
    body: mainBody(null, openNow),
  });
  const typeIdOf = async (callId: number) =>
    (
      await api<{ proposalTypes: { typeId: number }[] }>('GET', `/calls/${callId}/`, {
        token: adminToken,
      })
    ).proposalTypes[0]!.typeId;
  const mainTypeId = await typeIdOf(mainId);

  // A call of each payload, its description that payload alone.
  const payloadCalls = await inTurn(PAYLOADS, 4, async (payload) => {
    const { id } = await api<{ id: number }>('POST', '/new_call/', {
      token: adminToken,
      body: callBody({
        id: null,
        committee: committeeIds[payload.id - 1]!,
        name: nameOf(payload, tag, MAX.call),
        description: richText([payload]),
        typeName: nameOf(payload, tag, MAX.type),
        typeId: null,
        dates: openNow,
      }),
    });
    return { id, payload };
  });

  // The author's proposals: one named by each payload, then one by each formula.
  const authorToken = await logInApi(author);
  const target = { callId: mainId, typeId: mainTypeId };
  const write = async (name: string, answers: Record<string, unknown>, submit: boolean) => {
    const proposalId = await createProposal(authorToken, { ...target, name });
    await saveAnswers(authorToken, { ...target, proposalId, formId: proposalFormDef.id }, answers);
    if (submit) {
      await api('POST', '/proposal_state/', {
        token: authorToken,
        body: { proposalId, state: 1 },
      });
    }
    return proposalId;
  };
  const proposals = await inTurn(PAYLOADS, 3, async (payload) => {
    const name = nameOf(payload, tag, MAX.proposal);
    const batch = BATCHES[Math.floor((payload.id - 1) / BATCH)]!;
    const id = await write(
      name,
      { title: `${markerOf(payload)} ${payload.text}`, abstract: plainText(batch) },
      true,
    );
    return { id, name, payload };
  });
  // Names are trimmed when saved, so the formulas that start with a tab or a carriage
  // return reach the downloads through a review answer instead.
  const formulaNames = FORMULA_PAYLOADS.filter((formula) => !/^\s/.test(formula));
  const formulaProposals = await inTurn(formulaNames, 2, async (formula) => {
    const id = await write(formula, { title: formula, abstract: formula }, true);
    return { id, name: formula, payload: null };
  });
  const fileBatches = Array.from({ length: Math.ceil(PAYLOADS.length / FILES_PER_DRAFT) }, (_, i) =>
    PAYLOADS.slice(i * FILES_PER_DRAFT, (i + 1) * FILES_PER_DRAFT),
  );
  const drafts = await inTurn(fileBatches, 1, async (batch) => {
    const name = `Draft ${fileBatches.indexOf(batch) + 1} ${tag}`;
    const id = await write(name, { title: plainText(batch), abstract: 'Files' }, false);
    await inTurn(batch, 4, (payload) =>
      attachFile(authorToken, id, `${payload.text} ${markerOf(payload)}.pdf`),
    );
    return { id, name, payload: null };
  });

  // Review opens; the chair (the admin) writes the decision summaries, in batches, and
  // assigns Rita to the first proposals; she reviews the second with every payload.
  const minute = 60 * 1000;
  const move = (dates: Omit<CallDates, 'openDateTime'>) =>
    api('POST', '/new_call/', {
      token: adminToken,
      body: {
        ...mainBody(mainTypeId, { openDateTime: openNow.openDateTime, ...dates }),
        new: false,
        id: mainId,
      },
    });
  await move({
    closeDateTime: new Date(Date.now() - 2 * minute),
    reviewOpenDateTime: new Date(Date.now() - minute),
    reviewCloseDateTime: daysFromNow(30, 17),
  });
  await inTurn(
    BATCHES.map((batch, index) => ({ batch, proposal: proposals[index]! })),
    2,
    ({ batch, proposal }) =>
      api('POST', '/update_decision_summary/', {
        token: adminToken,
        // Each proposal is new: its decision summary has never been saved (version 0).
        body: { proposalId: proposal.id, summary: richText(batch), version: 0 },
      }),
  );
  const reviewed = proposals[1]!;
  for (const proposal of [...proposals.slice(0, BATCH), ...formulaProposals]) {
    await api('POST', '/reviewers/', {
      token: adminToken,
      body: { proposalId: proposal.id, userId: reviewer.id },
    });
  }
  const reviewerToken = await logInApi(reviewer);
  // The call asks its members whether they have a conflict before a proposal opens: the
  // reviewer has none with those assigned to them, so each opens with its payloads.
  for (const proposal of [...proposals.slice(0, BATCH), ...formulaProposals])
    await api('POST', `/proposals/${proposal.id}/conflict_declaration/`, {
      token: reviewerToken,
      body: { conflict: false },
    });
  const first = await api<{ reviewId: number; version: number }>('POST', '/review_responses/', {
    token: reviewerToken,
    body: {
      call: mainId,
      proposal: reviewed.id,
      formId: review.id,
      hash: 2001,
      data: { strengths: plainText(PAYLOADS), weaknesses: FORMULA_PAYLOADS.at(-1) },
    },
  });
  await api('POST', '/review_responses/', {
    token: reviewerToken,
    body: {
      call: mainId,
      proposal: reviewed.id,
      reviewId: first.reviewId,
      version: first.version,
      formId: scores.id,
      hash: 2002,
      data: { significance: 4, feasibility: 3 },
    },
  });
  // A review of a formula proposal whose answers start with a tab and a carriage return.
  await api('POST', '/review_responses/', {
    token: reviewerToken,
    body: {
      call: mainId,
      proposal: formulaProposals[0]!.id,
      formId: review.id,
      hash: 2003,
      data: { strengths: FORMULA_PAYLOADS[4], weaknesses: FORMULA_PAYLOADS[5] },
    },
  });

  return {
    tag,
    adminToken,
    author,
    reviewer,
    main: { id: mainId, name: mainName, committeeId: mainCommitteeId },
    payloadCalls,
    committeeIds,
    proposalFormId: proposalFormDef.id,
    drafts,
    proposals,
    formulaProposals,
    reviewed,
    reviewId: first.reviewId,
    endReview: async () => {
      const start = Date.now();
      await move({
        closeDateTime: new Date(start - 3 * minute),
        reviewOpenDateTime: new Date(start - 2 * minute),
        reviewCloseDateTime: new Date(start - 1000),
      });
    },
  };
}
