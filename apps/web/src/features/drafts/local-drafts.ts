import {
  clear,
  createStore,
  del,
  delMany,
  entries,
  get,
  keys,
  set,
  type UseStore,
} from 'idb-keyval';

/*
 * Unsaved answers kept in the browser (IndexedDB) while someone types, until the server
 * has them: a reload, a crash, a closed tab, a dropped network or an ended session loses
 * nothing, and the editor offers them back. Kept per user, so a shared computer shows no
 * one another person's answers, and cleared when they log out.
 */

/** What a draft belongs to: one form entry of a proposal, a review form, a decision summary. */
export type DraftScope =
  | { kind: 'proposal'; proposalId: number; formId: number; entry: string }
  | { kind: 'review'; proposalId: number; formId: number }
  | { kind: 'decision'; proposalId: number };

export interface LocalDraft<T = unknown> {
  /** The unsaved answers. */
  data: T;
  /** The saved version they started from; null for answers never saved (a new entry). */
  baseVersion: number | null;
  /** When they were last typed (ms since the epoch), to say "from 14:32". */
  typedAt: number;
}

let store: UseStore | undefined;
const draftStore = () => (store ??= createStore('merit-drafts', 'drafts'));

/** The part of a key before the scope's own ids: every draft of one user, or one page. */
export function scopePrefix(userId: number, scope: Partial<DraftScope> & { kind: string }): string {
  const parts = [String(userId), scope.kind];
  if ('proposalId' in scope && scope.proposalId !== undefined) parts.push(String(scope.proposalId));
  return `${parts.join('/')}/`;
}

export function draftKey(userId: number, scope: DraftScope): string {
  const prefix = scopePrefix(userId, scope);
  switch (scope.kind) {
    case 'proposal':
      return `${prefix}${scope.formId}/${scope.entry}`;
    case 'review':
      return `${prefix}${scope.formId}`;
    case 'decision':
      return prefix;
  }
}

/*
 * IndexedDB can be missing or refuse (a private window in some browsers, a full disk):
 * then drafts are simply not kept, and saving to the server works as before.
 */
async function tryStore<T>(fn: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await fn();
  } catch {
    return fallback;
  }
}

/*
 * The users whose drafts this tab has forgotten (they logged out): an editor's last write,
 * on its way as the page closes, must not bring one back.
 */
const forgotten = new Set<string>();
const ownerOf = (key: string) => key.slice(0, key.indexOf('/'));

export const putDraft = (key: string, draft: LocalDraft) =>
  forgotten.has(ownerOf(key))
    ? Promise.resolve()
    : tryStore(() => set(key, draft, draftStore()), undefined);

export const getDraft = <T>(key: string) =>
  tryStore(() => get<LocalDraft<T>>(key, draftStore()), undefined);

export const deleteDraft = (key: string) => tryStore(() => del(key, draftStore()), undefined);

/** Every draft whose key starts with `prefix`, e.g. all of one proposal for one user. */
export async function draftsUnder<T = unknown>(
  prefix: string,
): Promise<[key: string, draft: LocalDraft<T>][]> {
  const all = await tryStore(() => entries<string, LocalDraft<T>>(draftStore()), []);
  return all.filter(([key]) => typeof key === 'string' && key.startsWith(prefix));
}

/** Deletes the drafts whose key `drop` picks, reading only the keys (drafts can be large). */
async function deleteWhere(drop: (key: string) => boolean): Promise<void> {
  const all = await tryStore(() => keys<IDBValidKey>(draftStore()), []);
  const gone = all.filter((key) => typeof key === 'string' && drop(key));
  if (gone.length > 0) await tryStore(() => delMany(gone, draftStore()), undefined);
}

/**
 * Forgets every draft of one user: they logged out (or deleted their account). Until they
 * sign in again (`keepOnlyDraftsOf`), this tab keeps none of theirs.
 */
export function clearUserDrafts(userId: number): Promise<void> {
  forgotten.add(String(userId));
  return deleteWhere((key) => ownerOf(key) === String(userId));
}

/**
 * The user who signed in on this browser: their drafts are kept (and offered back, after a
 * session that ended), every other account's are forgotten (a shared computer).
 */
export function keepOnlyDraftsOf(userId: number): Promise<void> {
  forgotten.delete(String(userId));
  return deleteWhere((key) => ownerOf(key) !== String(userId));
}

/** For tests: an empty store, and no user forgotten. */
export const clearAllDrafts = () => {
  forgotten.clear();
  return tryStore(() => clear(draftStore()), undefined);
};
