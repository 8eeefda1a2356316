/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// page.evaluate() callbacks run in the browser.
/**
 * The browser side of figures (d), (e), (f) and (h): Debian's Chromium headless shell with
 * the e2e suite's flags, pages opened signed in, and the script requests of a page load
 * grouped in waves.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, HEADLESS_SHELL_PATH } from '../../scripts/lib/chromium.mjs';

/** Where a tab of the web app keeps the signed-in user's token (apps/web/src/api/session.ts). */
const TOKEN_KEY = 'merit.token';

/** The browser the figures time pages in: the headless shell (scripts/lib/chromium.mjs says why). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS });
}

/** The full Chromium the e2e suite drives, in its headless mode: printed beside a figure. */
export function launchFullChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A page in a fresh context (an empty cache, as a first visit) that is signed in with
 * `token` before any script of the app runs, as a login earlier in the same tab would
 * leave it: the token in the tab's sessionStorage, so the app asks no other tab for it.
 */
export async function signedInPage(browser: Browser, token: string | null): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  if (token !== null) {
    await context.addInitScript(([key, value]) => window.sessionStorage.setItem(key, value), [
      TOKEN_KEY,
      token,
    ] as const);
  }
  return context.newPage();
}

declare global {
  interface Window {
    /** When the awaited element was painted (openTimed). */
    __shownAt?: number;
  }
}

/**
 * Opens `url` and resolves with when the first element matching `selector` (holding `text`,
 * when given) was painted, by the page's clock: a MutationObserver in the page notes the
 * mutation that added it, and the time is taken in the frame after it, as the typing
 * figure counts a key's frame. Playwright's own waiting polls (after 100 ms, then every
 * 500 ms) and then asks the page the time, which added up to half a second to the figure.
 */
export async function openTimed(
  page: Page,
  url: string,
  selector: string,
  text?: string,
): Promise<number> {
  await page.addInitScript(
    ([wanted, holding]) => {
      // No named functions in here: tsx would wrap them in a helper the page does not have.
      const observer = new MutationObserver(() => {
        const element = document.querySelector(wanted);
        if (element === null || (holding !== null && !element.textContent?.includes(holding)))
          return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => (window.__shownAt = performance.now())));
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    },
    [selector, text ?? null] as const,
  );
  await page.goto(url);
  // Resolves with the time once the page has noted it (a paint time is never 0).
  const shownAt = await page.waitForFunction(() => window.__shownAt, undefined, {
    timeout: 60_000,
  });
  return Number(await shownAt.jsonValue());
}

export interface ScriptWaves {
  /** Script requests in the load. */
  scripts: number;
  /** Rounds of script requests, each started by a script of the round before it. */
  waves: number;
  /** Scripts per wave, first wave first. */
  perWave: number[];
}

/**
 * Records the script requests of the page's next load and groups them in waves: requests
 * in flight together are one wave, and a script asked for when every script asked for
 * before it has arrived starts the next one, since only code that has run can have asked
 * for it (an import() of a route's page, its modulepreload links). Chromium's DevTools
 * protocol gives the times; its initiators do not name the module that asked.
 */
export async function recordScriptWaves(page: Page): Promise<() => ScriptWaves> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const events: { at: number; kind: 'sent' | 'done'; id: string }[] = [];
  const scripts = new Set<string>();
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.type !== 'Script') return;
    scripts.add(event.requestId);
    events.push({ at: event.timestamp, kind: 'sent', id: event.requestId });
  });
  const done = (event: { requestId: string; timestamp: number }) => {
    if (scripts.has(event.requestId)) {
      events.push({ at: event.timestamp, kind: 'done', id: event.requestId });
    }
  };
  cdp.on('Network.loadingFinished', done);
  cdp.on('Network.loadingFailed', done);
  return () => {
    const perWave: number[] = [];
    const inFlight = new Set<string>();
    // Events arrive in order; at equal times an arrival comes before a request it allowed.
    const ordered = events
      .map((event, index) => ({ ...event, index }))
      .sort(
        (a, b) =>
          a.at - b.at || (a.kind === b.kind ? a.index - b.index : a.kind === 'done' ? -1 : 1),
      );
    for (const event of ordered) {
      if (event.kind === 'done') {
        inFlight.delete(event.id);
        continue;
      }
      if (inFlight.size === 0) perWave.push(0);
      perWave[perWave.length - 1]! += 1;
      inFlight.add(event.id);
    }
    return { scripts: scripts.size, waves: perWave.length, perWave };
  };
}

/** performance.now() in the page: milliseconds since its navigation started. */
export function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/** The page's First Contentful Paint, in milliseconds from navigation start. */
export function firstContentfulPaint(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entry = list.getEntriesByName('first-contentful-paint')[0];
          if (entry) resolve(entry.startTime);
        }).observe({ type: 'paint', buffered: true });
      }),
  );
}

/** The rows of the chair's proposal list page (the call's Resource Totals table comes first). */
export const LIST_PAGE_ROWS = 'table[aria-label^="Proposals of"] tbody tr';

/**
 * The baseline of figure (i)'s pages: the chair's list page of call `callId` ((e)'s
 * page), opened signed in with `token` in a fresh context, to its first row painted.
 */
export async function openListPage(
  browser: Browser,
  baseUrl: string,
  callId: number,
  token: string,
): Promise<number> {
  const page = await signedInPage(browser, token);
  try {
    return await openTimed(page, `${baseUrl}/calls/${callId}/proposals`, LIST_PAGE_ROWS);
  } finally {
    await page.context().close();
  }
}
