import { TAB_HEADER as CONTRACT_TAB_HEADER, TAB_ID_MAX } from '@merit/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as firstTab from './tab-id';

/**
 * This module is one tab; a tab that loads is a fresh copy of the module, which starts as
 * the app does, with this window's sessionStorage as the browser left it: kept on a
 * reload, copied into a duplicated tab.
 */

type Tab = typeof firstTab;
const opened: Tab[] = [firstTab];

async function loadTab(): Promise<Tab> {
  vi.resetModules();
  const tab = await import('./tab-id');
  opened.push(tab);
  await tab.whenTabIdKnown();
  return tab;
}

afterEach(() => {
  for (const tab of opened.splice(0)) tab.closeTabForTests();
});

describe('the tab id', () => {
  it('is a random id the contract takes, under the contract’s header name', () => {
    expect(firstTab.TAB_HEADER).toBe(CONTRACT_TAB_HEADER);
    expect(firstTab.getTabId()).toMatch(/^[0-9a-f]{32}$/);
    expect(firstTab.getTabId().length).toBeLessThanOrEqual(TAB_ID_MAX);
    expect(window.sessionStorage.getItem('merit.tab')).toBe(firstTab.getTabId());
  });

  it('stays the same when the tab reloads', async () => {
    window.sessionStorage.setItem('merit.tab', 'a'.repeat(32));
    const before = await loadTab();
    expect(before.getTabId()).toBe('a'.repeat(32));
    // Reloading closes the page that was there, then loads it again.
    before.closeTabForTests();

    const after = await loadTab();
    expect(after.getTabId()).toBe('a'.repeat(32));
  });

  it('is new in a duplicated tab, and stays in the tab it was copied from', async () => {
    window.sessionStorage.setItem('merit.tab', 'b'.repeat(32));
    const original = await loadTab();
    // The browser copies sessionStorage into the duplicate, which starts while the
    // original is open.
    const duplicate = await loadTab();

    expect(original.getTabId()).toBe('b'.repeat(32));
    expect(duplicate.getTabId()).toMatch(/^[0-9a-f]{32}$/);
    expect(duplicate.getTabId()).not.toBe(original.getTabId());
    // The copy keeps its new id through its own reloads.
    expect(window.sessionStorage.getItem('merit.tab')).toBe(duplicate.getTabId());
  });

  it('gives a tab that started without an id one at once, without asking', async () => {
    window.sessionStorage.removeItem('merit.tab');
    const post = vi.spyOn(BroadcastChannel.prototype, 'postMessage');
    const tab = await loadTab();
    expect(tab.getTabId()).toMatch(/^[0-9a-f]{32}$/);
    expect(post).not.toHaveBeenCalled();
  });
});
