import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as session from './session';

/**
 * This module is one tab; another tab is a BroadcastChannel of the same name, as the other
 * tabs of the origin are in a browser (e2e/journeys/session-tabs.e2e.ts runs real ones).
 * A tab that loads is a fresh copy of the module, which starts as the app does.
 */

const CHANNEL = 'merit.session';
const HINT = 'merit.signedIn';

type Tab = typeof session;
const opened: { close: () => void }[] = [];

/** Another open tab: what it heard, and what it says. */
function otherTab({ answer }: { answer?: string } = {}) {
  const channel = new BroadcastChannel(CHANNEL);
  const heard: unknown[] = [];
  channel.onmessage = (event: MessageEvent<unknown>) => {
    heard.push(event.data);
    if (answer && (event.data as { type?: unknown }).type === 'ask') {
      channel.postMessage({ type: 'answer', token: answer });
    }
  };
  opened.push(channel);
  return { heard, say: (message: unknown) => channel.postMessage(message) };
}

/** A tab that loads now, with this browser's storage as it is. */
async function loadTab(): Promise<Tab> {
  vi.resetModules();
  const tab = await import('./session');
  opened.push({ close: tab.resetSessionForTests });
  return tab;
}

/** Everything in localStorage, to show no token is in it. */
function localStorageValues(): string[] {
  return Object.keys(window.localStorage).map((key) => window.localStorage.getItem(key) ?? '');
}

beforeEach(() => {
  // The module's own channel opened as this file loaded; each test opens what it needs.
  session.resetSessionForTests();
});

afterEach(() => {
  for (const channel of opened.splice(0)) channel.close();
  vi.restoreAllMocks();
});

describe('the token of this tab', () => {
  it('is kept in sessionStorage, with only a hint that holds no token in localStorage', () => {
    session.setToken('secret-key');

    expect(session.getToken()).toBe('secret-key');
    expect(window.sessionStorage.getItem('merit.token')).toBe('secret-key');
    expect(window.localStorage.getItem(HINT)).toBe('1');
    expect(localStorageValues().join(' ')).not.toContain('secret-key');
  });

  it('is forgotten, with the hint, when the session ends, and says why', () => {
    const listener = vi.fn();
    const unsubscribe = session.subscribeToSession(listener);
    session.setToken('secret-key');

    session.endSession('expired');
    session.endSession('expired');

    expect(session.getToken()).toBeNull();
    expect(window.localStorage.getItem(HINT)).toBeNull();
    expect(session.getLastEndReason()).toBe('expired');
    // The login, then one end: the second call found no session.
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it('lives in memory when the browser refuses storage, as long as the tab', () => {
    vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });

    session.setToken('memory-key');
    expect(session.getToken()).toBe('memory-key');
    session.endSession('logout');
    expect(session.getToken()).toBeNull();
  });
});

describe('the open tabs share one session', () => {
  it('answers another tab that asks, once signed in', async () => {
    const other = otherTab();
    session.setToken('own-key');
    session.endSession('logout');
    // Read in order: the ask finds the tab signed out, and the login then signs it in.
    other.say({ type: 'ask' });
    other.say({ type: 'login', token: 'other-key' });
    await vi.waitFor(() => expect(session.getToken()).toBe('other-key'));
    other.say({ type: 'ask' });

    await vi.waitFor(() =>
      expect(other.heard).toEqual([
        { type: 'login', token: 'own-key' },
        { type: 'end', reason: 'logout' },
        { type: 'answer', token: 'other-key' },
      ]),
    );
  });

  it('signs in when another tab logs in, and tells the others of its own login', async () => {
    const listener = vi.fn();
    const unsubscribe = session.subscribeToSession(listener);
    session.setToken('first-key');
    const other = otherTab();

    other.say({ type: 'login', token: 'other-key' });

    await vi.waitFor(() => expect(session.getToken()).toBe('other-key'));
    expect(listener).toHaveBeenCalledTimes(2);
    session.setToken('own-key');
    await vi.waitFor(() => expect(other.heard).toEqual([{ type: 'login', token: 'own-key' }]));
    unsubscribe();
  });

  it('ends when another tab logs out or finds the session expired, and tells the others', async () => {
    session.setToken('secret-key');
    const other = otherTab();

    other.say({ type: 'end', reason: 'expired' });
    await vi.waitFor(() => expect(session.getToken()).toBeNull());
    expect(session.getLastEndReason()).toBe('expired');
    expect(window.localStorage.getItem(HINT)).toBeNull();

    session.setToken('secret-key');
    session.endSession('logout');
    await vi.waitFor(() =>
      expect(other.heard).toEqual([
        { type: 'login', token: 'secret-key' },
        { type: 'end', reason: 'logout' },
      ]),
    );
  });

  it('ignores messages it does not know', async () => {
    session.setToken('secret-key');
    const other = otherTab();
    for (const message of [
      'login',
      null,
      { type: 'login', token: 42 },
      { type: 'login', token: '' },
      { type: 'end', reason: 'because' },
      { type: 'answer', token: 'unasked-key' },
    ]) {
      other.say(message);
    }
    other.say({ type: 'ask' });

    // The answer to the last message shows the ones before it were read, and changed nothing.
    await vi.waitFor(() => expect(other.heard).toEqual([{ type: 'answer', token: 'secret-key' }]));
    expect(session.getToken()).toBe('secret-key');
  });
});

describe('a tab that loads', () => {
  it('takes the token of an open tab, before the app renders', async () => {
    window.localStorage.setItem(HINT, '1');
    const other = otherTab({ answer: 'shared-key' });

    const tab = await loadTab();
    expect(tab.getToken()).toBeNull();
    expect(tab.maySignIn()).toBe(true);
    const started = performance.now();
    await tab.whenSessionKnown();

    expect(performance.now() - started).toBeLessThan(session.ASK_TIMEOUT_MS);
    expect(tab.getToken()).toBe('shared-key');
    expect(window.sessionStorage.getItem('merit.token')).toBe('shared-key');
    expect(other.heard).toEqual([{ type: 'ask' }]);
  });

  it('asks nobody and waits for nothing when no tab is signed in', async () => {
    const other = otherTab({ answer: 'shared-key' });

    const tab = await loadTab();
    await tab.whenSessionKnown();

    expect(tab.getToken()).toBeNull();
    expect(tab.maySignIn()).toBe(false);
    // Its messages arrive in order, so an ask as it loaded would come before this login.
    tab.setToken('own-key');
    await vi.waitFor(() => expect(other.heard).toEqual([{ type: 'login', token: 'own-key' }]));
  });

  it('gives up after ASK_TIMEOUT_MS when no open tab answers, and clears the stale hint', async () => {
    vi.useFakeTimers();
    window.localStorage.setItem(HINT, '1');
    const listener = vi.fn();

    const tab = await loadTab();
    tab.subscribeToSession(listener);
    let known = false;
    void tab.whenSessionKnown().then(() => (known = true));
    // Once the code that loaded with it has run, the tab waits ASK_TIMEOUT_MS.
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(session.ASK_TIMEOUT_MS - 1);
    expect(known).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect(known).toBe(true);
    expect(tab.getToken()).toBeNull();
    expect(window.localStorage.getItem(HINT)).toBeNull();
    expect(listener).not.toHaveBeenCalled();
  });

  it('still takes an answer that comes late, as a login in another tab', async () => {
    vi.useFakeTimers();
    window.localStorage.setItem(HINT, '1');
    const tab = await loadTab();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(session.ASK_TIMEOUT_MS);
    await tab.whenSessionKnown();
    vi.useRealTimers();

    otherTab().say({ type: 'answer', token: 'late-key' });

    await vi.waitFor(() => expect(tab.getToken()).toBe('late-key'));
    expect(window.localStorage.getItem(HINT)).toBe('1');
  });

  it('keeps its own token from before a reload, and asks nobody', async () => {
    window.sessionStorage.setItem('merit.token', 'own-key');
    window.localStorage.setItem(HINT, '1');
    const other = otherTab({ answer: 'shared-key' });

    const tab = await loadTab();
    await tab.whenSessionKnown();
    other.say({ type: 'ask' });

    await vi.waitFor(() => expect(other.heard).toEqual([{ type: 'answer', token: 'own-key' }]));
    expect(tab.getToken()).toBe('own-key');
  });

  it("moves the previous version's token out of localStorage, so the upgrade logs nobody out", async () => {
    window.localStorage.setItem('merit.token', 'old-key');

    const tab = await loadTab();
    await tab.whenSessionKnown();

    expect(tab.getToken()).toBe('old-key');
    expect(window.sessionStorage.getItem('merit.token')).toBe('old-key');
    expect(window.localStorage.getItem('merit.token')).toBeNull();
    expect(localStorageValues().join(' ')).not.toContain('old-key');
    expect(window.localStorage.getItem(HINT)).toBe('1');
  });
});
