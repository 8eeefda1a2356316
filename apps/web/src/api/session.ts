/**
 * The API token of the signed-in user. localStorage is the source of truth so that
 * every tab shares one session: logging out in one tab logs out the others.
 */
const STORAGE_KEY = 'merit.token';

/** Why the session last ended; the login page explains an expiry, not a logout. */
export type SessionEndReason = 'logout' | 'expired';

type Listener = () => void;
const listeners = new Set<Listener>();
let lastEndReason: SessionEndReason | null = null;
// Used only when the browser refuses storage (privacy settings): the session then
// lasts as long as the tab instead of making login impossible.
let memoryToken: string | null = null;

function notify(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return memoryToken;
  }
}

export function setToken(token: string): void {
  lastEndReason = null;
  try {
    window.localStorage.setItem(STORAGE_KEY, token);
  } catch {
    memoryToken = token;
  }
  notify();
}

/** Forgets the token. Does nothing when there is none, so a burst of 401s ends it once. */
export function endSession(reason: SessionEndReason): void {
  if (getToken() === null) return;
  lastEndReason = reason;
  memoryToken = null;
  try {
    window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage is unavailable, so the token only lived in memory.
  }
  notify();
}

export function getLastEndReason(): SessionEndReason | null {
  return lastEndReason;
}

/** For tests: start each one as a first visit. */
export function resetSessionForTests(): void {
  lastEndReason = null;
  memoryToken = null;
}

/** Subscribes to token changes in this tab and in other tabs (the `storage` event). */
export function subscribeToSession(listener: Listener): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY || event.key === null) listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
