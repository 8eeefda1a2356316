import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { REPO_ROOT } from '../../scripts/lib/server.mjs';

/** Where the manual's pictures live: docs/manual.md names them as images/<name>.png. */
export const IMAGES = join(REPO_ROOT, 'docs', 'images');

/**
 * Writes what `target` shows (the page's viewport, or one element) to docs/images. No
 * caret and no animation half-way: the picture is the same on every run.
 */
export async function shoot(target: Page | Locator, name: string): Promise<void> {
  // The mouse where the last click left it would light up whatever lies there now.
  const page = 'page' in target ? target.page() : target;
  await page.mouse.move(0, 0);
  await target.screenshot({
    path: join(IMAGES, `${name}.png`),
    animations: 'disabled',
    caret: 'hide',
  });
}

/** Scrolls the page until `locator` is at the top, just under the top bar. */
export async function scrollToTop(locator: Locator): Promise<void> {
  await locator.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 72));
}
