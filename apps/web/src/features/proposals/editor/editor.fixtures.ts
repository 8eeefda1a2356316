import type { LockState, ProposalConflicts, ProposalDetail } from '@merit/contract';
import { proposalMessages } from '@merit/domain';
import { screen, within } from '@testing-library/react';
import {
  AFTER_NAVIGATION,
  apiCalls,
  renderApp,
  stubApi,
  type ApiHandler,
} from '../../../test/render-app';
import { makeUser } from '../../../test/fixtures';
import { makeFormOrder, makeProposal } from '../proposals.fixtures';

/*
 * Test data only: the proposal editor's API for component tests of ProposalEditorPage,
 * with answers kept as the server keeps them (ids and versions).
 */

export const PATH = '/calls/12/proposals/30/';
export const ADA_HOLDS_IT: LockState = { holderId: 7, holder: 'Ada Lovelace', mine: true };
export const GRACE_HOLDS_IT: LockState = {
  holderId: 9,
  holder: 'Grace Hopper',
  mine: false,
  reason: 'held',
  message: proposalMessages.locked('Grace Hopper'),
};

export interface SaveBody {
  formId: number;
  index: number;
  hash: number;
  singleSave: boolean;
  validate: boolean;
  data: Record<string, unknown>;
  entryId?: string | null;
  version?: number | null;
}

type Answers = Record<string, unknown>;

interface SavedEntry {
  entryId: string;
  version: number;
  data: Answers;
  savedBy: string;
  savedAt: string;
}

/** Form 3 (Team Members) takes several entries; form 1 one. */
export const MULTI_FORM = 3;

/**
 * The proposal's answers as the server keeps them: each entry with its id and version,
 * which each save raises; a save from an older version is refused as stale.
 */
export function fakeAnswers(initial: ProposalDetail['responses'] = {}) {
  let nextId = 1;
  const forms = new Map<number, SavedEntry[]>();
  const make = (data: Answers, savedBy = 'Ada Lovelace'): SavedEntry => ({
    entryId: `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`,
    version: 1,
    data,
    savedBy,
    savedAt: '2026-03-03T09:15:00.000Z',
  });
  for (const [formId, response] of Object.entries(initial)) {
    forms.set(
      Number(formId),
      (Array.isArray(response) ? response : [response]).map((d) => make(d)),
    );
  }
  const entriesOf = (formId: number) => forms.get(formId) ?? [];
  return {
    /** `responses` and `entries`, as GET /proposals/30/ sends them. */
    detail: (): Pick<ProposalDetail, 'responses' | 'entries'> => ({
      responses: Object.fromEntries(
        [...forms].map(([formId, list]) => [
          String(formId),
          formId === MULTI_FORM ? list.map((item) => item.data) : list[0]!.data,
        ]),
      ),
      entries: Object.fromEntries(
        [...forms].map(([formId, list]) => [
          String(formId),
          list.map(({ entryId, version, savedBy, savedAt }) => ({
            entryId,
            version,
            savedBy,
            savedAt,
          })),
        ]),
      ),
    }),
    entry: (formId: number, index: number) => entriesOf(formId)[index]!,
    /** Someone else saves an entry (or adds one). */
    saveAs: (savedBy: string, formId: number, index: number, data: Answers) => {
      const list = [...entriesOf(formId)];
      const current = list[index];
      list[index] = current
        ? {
            ...current,
            version: current.version + 1,
            data,
            savedBy,
            savedAt: '2026-03-03T13:45:00.000Z',
          }
        : make(data, savedBy);
      forms.set(formId, list);
    },
    handler: (({ body }) => {
      const { formId, index, data, entryId, version } = body as SaveBody;
      const list = [...entriesOf(formId)];
      const at = entryId ? list.findIndex((item) => item.entryId === entryId) : -1;
      const current = at >= 0 ? list[at]! : formId !== MULTI_FORM ? list[0] : undefined;
      const stale = entryId ? !current || current.version !== version : current !== undefined;
      if (stale) {
        return {
          status: 409,
          body: {
            detail: 'Someone else saved these answers after you opened them.',
            code: 'stale',
            current: current ?? null,
          },
        };
      }
      const saved: SavedEntry = current
        ? { ...current, version: current.version + 1, data }
        : make(data);
      if (at >= 0) list[at] = saved;
      else list.push(saved);
      forms.set(formId, list);
      return {
        body: {
          proposalId: 30,
          author: 'Ada Lovelace',
          authorId: 7,
          formId,
          index,
          lastModified: '2026-03-03T00:00:00.000Z',
          entryId: saved.entryId,
          version: saved.version,
        },
      };
    }) satisfies ApiHandler,
  };
}

const conflictsOff: ProposalConflicts = {
  enabled: false,
  version: 0,
  candidates: [],
  conflicts: [],
  abilities: { declare: false, manage: false },
};

/**
 * The proposal's API as the server keeps it: saves land in `fakeAnswers`, and the next
 * GET /proposals/30/ sends them back. `answers` adds or replaces routes.
 */
export function stubEditor(
  proposal: Partial<ProposalDetail> = {},
  answers: Parameters<typeof stubApi>[0] = {},
  saved = fakeAnswers(proposal.responses),
) {
  return stubApi({
    'GET /user_details/': { body: makeUser() },
    'GET /proposals/30/': () => ({ body: makeProposal({ ...proposal, ...saved.detail() }) }),
    'GET /proposal_form_order/12/': { body: makeFormOrder() },
    'GET /lock/30/': { body: ADA_HOLDS_IT },
    'DELETE /lock/30/': { status: 204 },
    'POST /proposal_responses/': saved.handler,
    // The Conflicts panel (features/conflicts tests it): off for this call, so not shown.
    'GET /proposals/30/conflicts/': { body: conflictsOff },
    ...answers,
  });
}

type FetchStub = ReturnType<typeof stubApi>;

/** The bodies of every save sent, in order. */
export function saves(fetchStub: FetchStub): SaveBody[] {
  return fetchStub.mock.calls
    .filter(
      ([input, init]) => init?.method === 'POST' && String(input).includes('/proposal_responses/'),
    )
    .map(([, init]) => JSON.parse(String(init!.body)) as SaveBody);
}

export const count = (fetchStub: FetchStub, call: string) =>
  apiCalls(fetchStub).filter((made) => made === call).length;

/**
 * Opens the editor and, unless `editable` is false, waits until it may be edited: the
 * forms stay read-only until this tab's lock poll has answered `mine` (after the tab id
 * check), which on a busy machine comes after the heading, and typing before it is lost.
 */
export async function openEditor(path = PATH, { editable = true } = {}) {
  const view = renderApp(path, { token: 'k' });
  await screen.findByRole('heading', { name: 'Dark matter survey' }, AFTER_NAVIGATION);
  if (editable) await screen.findByLabelText('Check answers when saving');
  return view;
}

export const tab = (name: string) => screen.getByRole('tab', { name: new RegExp(`^${name}`) });

/**
 * The answer under a field's title where answers read as a page (AnswersView): the `dd`
 * its `dt` goes with. `dt` has no accessible name of its own, so it is found by its text.
 */
export function answerTo(title: string, container: HTMLElement = document.body): HTMLElement {
  const term = within(container).getByText(title, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}
