/**
 * The id of this browser tab, sent with every API request (TAB_HEADER): the editing lock
 * of a proposal is held by one login session in one tab, so one person's two tabs are two
 * editors and the second is read-only.
 *
 * It is kept in sessionStorage, so that a reload keeps it: a reloaded tab with a new id
 * would find its own lease of a moment ago and be read-only until that ran out. Browsers
 * copy sessionStorage into a duplicated tab ("Duplicate tab", some links opened in a new
 * tab), so a tab that starts with an id asks the open tabs, on a BroadcastChannel, whether
 * one of them has it already; if one has, this tab is the copy and takes a new id.
 */

/** The contract's TAB_HEADER, written out: the contract's code loads later than this. */
export const TAB_HEADER = 'x-merit-tab';
const TAB_KEY = 'merit.tab';
const CHANNEL_NAME = 'merit.tab';
/**
 * How long a tab that started with a stored id waits for another to claim it. Open tabs
 * answer within a few milliseconds (session.ts measured the same kind of channel); only
 * the editing lock waits for this, not the page.
 */
export const TAB_CHECK_MS = 150;

type Message = { type: 'hello'; id: string } | { type: 'taken'; id: string };

let tabId = '';
let channel: BroadcastChannel | null = null;
// This tab started with a stored id and has not heard whether another tab holds it.
let checking = false;
let known: Promise<void> = Promise.resolve();
let stopChecking: () => void = () => {};

/** 128 random bits as hex; getRandomValues, unlike randomUUID, works on plain http too. */
function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function readStored(): string | null {
  try {
    return window.sessionStorage.getItem(TAB_KEY);
  } catch {
    return null;
  }
}

function store(id: string): void {
  tabId = id;
  try {
    window.sessionStorage.setItem(TAB_KEY, id);
  } catch {
    // Storage is refused: the id lasts as long as the page, and a reload gets a new one.
  }
}

/** This tab's id, as sent in TAB_HEADER. */
export function getTabId(): string {
  return tabId;
}

/**
 * Settles once this tab's id is its own: at once for a tab that started without one, or
 * once another tab has claimed it (then the id is new) or TAB_CHECK_MS has passed.
 */
export function whenTabIdKnown(): Promise<void> {
  return known;
}

function readMessage(data: unknown): Message | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, id } = data as Record<string, unknown>;
  if ((type === 'hello' || type === 'taken') && typeof id === 'string' && id !== '') {
    return { type, id };
  }
  return null;
}

function receive(message: Message): void {
  if (message.id !== tabId) return;
  if (message.type === 'hello' && !checking) {
    // A tab that started with our id is a copy of this one: it is told, and changes.
    channel?.postMessage({ type: 'taken', id: tabId } satisfies Message);
    return;
  }
  // An id in use is never changed: its editor may hold a lock with it.
  if (!checking) return;
  // Claimed by an open tab, or two copies started at once: this one takes a new id.
  store(newId());
  stopChecking();
}

function start(): void {
  const stored = readStored();
  if (stored === null) store(newId());
  else tabId = stored;
  // Browsers without a channel (none the app supports) cannot tell a copy from a reload.
  if (typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const message = readMessage(event.data);
    if (message) receive(message);
  };
  if (stored === null) return;
  checking = true;
  known = new Promise<void>((resolve) => {
    const timer = setTimeout(() => stopChecking(), TAB_CHECK_MS);
    stopChecking = () => {
      clearTimeout(timer);
      checking = false;
      stopChecking = () => {};
      resolve();
    };
  });
  channel.postMessage({ type: 'hello', id: tabId } satisfies Message);
}

start();

/** For tests: this tab closes its channel, as a closed or reloaded tab does. */
export function closeTabForTests(): void {
  stopChecking();
  channel?.close();
  channel = null;
}
