/**
 * The API token of the signed-in user, held in this tab's sessionStorage: it goes when the
 * tab or the browser closes, so a script that runs on the origin later, or the next person
 * at the computer, finds nothing (ASVS V3.2.3, V8.2.2). localStorage, which held it before,
 * keeps it on disk until someone logs out.
 *
 * The open tabs still share one session, through a BroadcastChannel: a new tab (a link
 * opened in a new tab, a tab that lost its storage) asks the others for the token, a login
 * in one tab signs in the others, and a logout or expiry in one ends the session in all.
 * No other module reads the token from storage: they call getToken().
 */
const TOKEN_KEY = 'merit.token';
/**
 * In localStorage: "a tab of this browser may be signed in", never the token. A new tab
 * asks the others only when it is set, so a visitor who is signed in nowhere waits for no
 * answer. It outlives a closed browser; the first tab that asks in vain then clears it.
 */
const SIGNED_IN_HINT_KEY = 'merit.signedIn';
const CHANNEL_NAME = 'merit.session';
/**
 * How long a new tab waits for another tab's answer, once its own code has run, before it
 * shows the login page. An open tab's answer is there by then or within 15 ms (Chromium,
 * 12 new tabs on a 2-core machine at load average 10: 0.1-14.5 ms); a frozen tab or none
 * at all never answers.
 */
export const ASK_TIMEOUT_MS = 150;

/** Why the session last ended; the login page explains an expiry, not a logout. */
export type SessionEndReason = 'logout' | 'expired';

/** What the tabs say to each other on the channel. */
type Message =
  | { type: 'ask' }
  | { type: 'answer'; token: string }
  | { type: 'login'; token: string }
  | { type: 'end'; reason: SessionEndReason };

type Listener = () => void;
const listeners = new Set<Listener>();
let lastEndReason: SessionEndReason | null = null;
// Used only when the browser refuses storage (privacy settings): the session then
// lasts as long as the tab instead of making login impossible.
let memoryToken: string | null = null;
let channel: BroadcastChannel | null = null;
// This tab asked the others for the token and has not had it yet. A late answer (after
// the login page showed) is still taken: it signs the tab in, as a login elsewhere does.
let asking = false;
let known: Promise<void> = Promise.resolve();
let stopWaiting: () => void = () => {};

function notify(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  try {
    return window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return memoryToken;
  }
}

function storeToken(token: string | null): void {
  try {
    if (token === null) window.sessionStorage.removeItem(TOKEN_KEY);
    else window.sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    memoryToken = token;
  }
}

function setSignedInHint(signedIn: boolean): void {
  try {
    if (signedIn) window.localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    else window.localStorage.removeItem(SIGNED_IN_HINT_KEY);
  } catch {
    // Storage is refused: every tab has its own session, as it had before the channel.
  }
}

function hasSignedInHint(): boolean {
  try {
    return window.localStorage.getItem(SIGNED_IN_HINT_KEY) !== null;
  } catch {
    return false;
  }
}

export function setToken(token: string): void {
  adopt(token);
  post({ type: 'login', token });
}

/** Takes `token` as this tab's session, from its own login or from another tab. */
function adopt(token: string): void {
  lastEndReason = null;
  asking = false;
  storeToken(token);
  setSignedInHint(true);
  stopWaiting();
  notify();
}

/** Forgets the token. Does nothing when there is none, so a burst of 401s ends it once. */
export function endSession(reason: SessionEndReason): void {
  if (forget(reason)) post({ type: 'end', reason });
}

function forget(reason: SessionEndReason): boolean {
  if (getToken() === null) return false;
  lastEndReason = reason;
  asking = false;
  storeToken(null);
  setSignedInHint(false);
  notify();
  return true;
}

export function getLastEndReason(): SessionEndReason | null {
  return lastEndReason;
}

/**
 * Settles once this tab knows whether it is signed in: at once, unless it has no token and
 * another tab may have one, then on the first answer or after ASK_TIMEOUT_MS. The app
 * renders after it, so a new tab's first screen is not the login page it would leave again.
 */
export function whenSessionKnown(): Promise<void> {
  return known;
}

/** Signed in, or waiting to hear: what the first page's downloads can assume. */
export function maySignIn(): boolean {
  return getToken() !== null || asking;
}

/** Subscribes to token changes in this tab, including those another tab sent. */
export function subscribeToSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function openChannel(): BroadcastChannel | null {
  // Browsers without it (none the app supports) keep a session per tab.
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const message = readMessage(event.data);
    if (message) receive(message);
  };
  return channel;
}

function post(message: Message): void {
  openChannel()?.postMessage(message);
}

/** Only scripts of this origin can post here; a malformed message is still ignored. */
function readMessage(data: unknown): Message | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, token, reason } = data as Record<string, unknown>;
  if (type === 'ask') return { type };
  if ((type === 'answer' || type === 'login') && typeof token === 'string' && token !== '')
    return { type, token };
  if (type === 'end' && (reason === 'logout' || reason === 'expired')) return { type, reason };
  return null;
}

function receive(message: Message): void {
  switch (message.type) {
    case 'ask': {
      const token = getToken();
      if (token !== null) post({ type: 'answer', token });
      return;
    }
    case 'answer':
      if (asking && getToken() === null) adopt(message.token);
      return;
    case 'login':
      if (getToken() !== message.token) adopt(message.token);
      return;
    case 'end':
      forget(message.reason);
      return;
  }
}

/**
 * The previous version kept the token in localStorage: it moves to this tab's session
 * once, so nobody is logged out by the upgrade, and leaves no copy on disk.
 */
function moveLegacyToken(): void {
  try {
    const legacy = window.localStorage.getItem(TOKEN_KEY);
    if (legacy === null) return;
    window.localStorage.removeItem(TOKEN_KEY);
    if (getToken() === null) storeToken(legacy);
    setSignedInHint(true);
  } catch {
    // Storage is refused: there is nothing to move.
  }
}

/** Runs as the app loads: this tab's token, the legacy one, or another tab's. */
function start(): void {
  openChannel();
  moveLegacyToken();
  if (getToken() !== null || !hasSignedInHint() || !channel) return;
  asking = true;
  known = new Promise<void>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const giveUp = () => {
      // Nobody answered: the hint outlived the last signed-in tab (a closed browser).
      if (asking) setSignedInHint(false);
      stopWaiting();
    };
    // The wait starts once the app's code has run (a task after this one): that takes
    // longer than the wait on a slow machine, and the answer that came meanwhile would
    // otherwise race the timeout that had come due.
    timer = setTimeout(() => (timer = setTimeout(giveUp, ASK_TIMEOUT_MS)), 0);
    stopWaiting = () => {
      clearTimeout(timer);
      stopWaiting = () => {};
      resolve();
    };
  });
  post({ type: 'ask' });
}

start();

/** For tests: start each one as a first visit, with no channel open until one is needed. */
export function resetSessionForTests(): void {
  lastEndReason = null;
  memoryToken = null;
  asking = false;
  stopWaiting();
  known = Promise.resolve();
  channel?.close();
  channel = null;
}
