/**
 * Watches a browser for any sign that a payload of the corpus ran: a call to alert,
 * confirm, prompt or print; a console message with a payload's tag; a request for a
 * canary URL; an uncaught error or console error; markup in the page that could run
 * (handlers, javascript: URLs, scripts, frames) though nothing has triggered it yet.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { markersIn } from './xss-payloads';

export interface Sighting {
  kind: 'dialog' | 'console' | 'request' | 'error' | 'markup';
  what: string;
  where: string;
}

const CANARY_CALL = '[xss canary]';

/**
 * Opens a browser with the page's Content Security Policy switched off: the journey judges
 * what the product writes into the page (its sanitising and its escaping) on its own, as
 * if the CSP, the second wall, were missing or wrong.
 */
export async function openWatchedBrowser(
  browser: Browser,
  baseURL: string,
  sightings: Sighting[],
): Promise<Page> {
  const context = await browser.newContext({ baseURL, bypassCSP: true });
  await watch(context, sightings);
  return context.newPage();
}

async function watch(context: BrowserContext, sightings: Sighting[]): Promise<void> {
  // Before any of the app's code: the dialogs report themselves instead of blocking.
  await context.addInitScript((prefix: string) => {
    for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
      Object.defineProperty(window, name, {
        configurable: false,
        value: (...args: unknown[]) => {
          console.warn(`${prefix} ${name}(${args.map(String).join(', ')})`);
          return null;
        },
      });
    }
  }, CANARY_CALL);
  await context.route(
    (url) => url.pathname.includes('/canary-'),
    async (route) => {
      sightings.push({ kind: 'request', what: route.request().url(), where: pageOf(route) });
      await route.abort();
    },
  );
  const onPage = (page: Page) => {
    page.on('dialog', (dialog) => {
      sightings.push({
        kind: 'dialog',
        what: `${dialog.type()}(${dialog.message()})`,
        where: page.url(),
      });
      void dialog.dismiss().catch(() => undefined);
    });
    page.on('console', (message) => {
      const text = message.text();
      if (text.startsWith(CANARY_CALL) || /\bxss-\d{3}\b/.test(text)) {
        sightings.push({ kind: 'console', what: text, where: page.url() });
      } else if (message.type() === 'error' && !isApiRefusal(text, message.location().url)) {
        sightings.push({ kind: 'error', what: text, where: page.url() });
      }
    });
    page.on('pageerror', (error) => {
      sightings.push({ kind: 'error', what: error.stack ?? error.message, where: page.url() });
    });
    page.on('request', (request) => {
      // Frames and workers the route may not see: any canary URL at all counts.
      if (request.url().includes('/canary-') && !request.url().startsWith('data:')) {
        const already = sightings.some((s) => s.kind === 'request' && s.what === request.url());
        if (!already) sightings.push({ kind: 'request', what: request.url(), where: page.url() });
      }
    });
  };
  context.on('page', onPage);
}

const pageOf = (route: { request: () => { frame: () => { page: () => Page } } }) => {
  try {
    return route.request().frame().page().url();
  } catch {
    return 'a worker';
  }
};

/** A 4xx of the API is a refusal the page shows; Chromium logs it as an error anyway. */
const isApiRefusal = (text: string, url: string) =>
  /^Failed to load resource: the server responded with a status of 4\d\d\b/.test(text) &&
  /^https?:\/\/[^/]+\/api\//.test(url);

/**
 * Markup in the page that a payload could have put there, whether or not it ran yet: an
 * event-handler attribute, a javascript:/vbscript:/data:text URL, a canary URL in an
 * attribute that loads it (a web link to it is fine), a script, a frame, object, embed,
 * style or link element in the body, a base or meta refresh anywhere. The app itself
 * uses none of them in the body.
 */
export async function injectedMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const urlAttributes = new Set([
      'href',
      'src',
      'srcset',
      'action',
      'formaction',
      'xlink:href',
      'data',
      'poster',
      'background',
      'srcdoc',
    ]);
    const describe = (element: Element) => element.outerHTML.slice(0, 160);
    const isWebLink = (element: Element, name: string) =>
      element.tagName === 'A' &&
      name === 'href' &&
      /^https?:/i.test(element.getAttribute('href') ?? '');
    for (const element of Array.from(document.querySelectorAll('base, meta[http-equiv]'))) {
      found.push(describe(element));
    }
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const tag = element.tagName.toLowerCase();
      if (['script', 'iframe', 'frame', 'object', 'embed', 'style', 'link'].includes(tag)) {
        found.push(describe(element));
        continue;
      }
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name.toLowerCase();
        const value = attribute.value;
        if (name.startsWith('on')) found.push(describe(element));
        else if (urlAttributes.has(name) && /^\s*(javascript|vbscript|data:text)/i.test(value))
          found.push(describe(element));
        // A web link is allowed content (rich text keeps them, markdown makes them from
        // addresses in text): it loads nothing until someone follows it.
        else if (urlAttributes.has(name) && value.includes('/canary-') && !isWebLink(element, name))
          found.push(describe(element));
        else if (name === 'style' && /url\(|expression\(|binding/i.test(value))
          found.push(describe(element));
      }
    }
    return found;
  });
}

/** The payloads whose markers the page shows: as text, in a field, or in the editor. */
export async function markersOnPage(page: Page): Promise<Set<number>> {
  const text = await page.evaluate(() =>
    [
      document.body.innerText,
      ...Array.from(document.querySelectorAll('input, textarea')).map(
        (field) => (field as HTMLInputElement | HTMLTextAreaElement).value,
      ),
    ].join('\n'),
  );
  return markersIn(text);
}
