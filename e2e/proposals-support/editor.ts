/**
 * The proposal editor as a person finds their way around it (spec section 2, Proposal
 * editor): its tabs, the entries of a multi-entry form, its fields and its lock.
 */
import type { Locator, Page, Response } from '@playwright/test';
import { expect } from '../fixtures';
import { textField } from '../support/pages';

export const editorPath = (callId: number, proposalId: number) =>
  `/calls/${callId}/proposals/${proposalId}/`;

/** The editor's answer from the lock: `GET` takes or renews it, `DELETE` gives it back. */
export function isLockResponse(response: Response, method: 'GET' | 'DELETE'): boolean {
  return (
    response.request().method() === method &&
    /^\/api\/v1\/lock\/\d+\/$/.test(new URL(response.url()).pathname)
  );
}

/**
 * Opens the proposal in the editor, and waits for the editor's first word with the lock:
 * who holds it then.
 */
export async function openEditor(page: Page, callId: number, proposalId: number) {
  const lock = page.waitForResponse((response) => isLockResponse(response, 'GET'));
  await page.goto(editorPath(callId, proposalId));
  return (await (await lock).json()) as {
    holderId: number | null;
    holder: string | null;
    /** This tab holds it. */
    mine: boolean;
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The tab of a form, by the form's name; its name goes on with its marks (`Has errors`). */
export function formTab(page: Page, formName: string): Locator {
  return page
    .getByRole('tablist', { name: 'Forms of this proposal' })
    .getByRole('tab', { name: new RegExp(`^${escapeRegExp(formName)}`) });
}

/** Shows the form's tab and waits for the form under it. */
export async function openFormTab(page: Page, formName: string): Promise<void> {
  await formTab(page, formName).click();
  await expect(formTab(page, formName)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { level: 2, name: formName, exact: true })).toBeVisible();
}

/**
 * Entry `number` (from 1) of the multi-entry form on screen, found by its Delete button,
 * which it alone holds: the entries' fields have the same labels.
 */
export function entry(page: Page, number: number): Locator {
  return page
    .getByRole('region')
    .filter({ has: page.getByRole('button', { name: `Delete entry ${number}`, exact: true }) });
}

/** A select of a form (rjsf's MUI select): its name starts with its label, then its choice. */
export function selectField(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('combobox', { name: new RegExp(`^${escapeRegExp(label)}`) });
}

/** Picks `option` in the select labelled `label`. */
export async function choose(scope: Page | Locator, label: string, option: string) {
  const page = 'page' in scope ? scope.page() : scope;
  await selectField(scope, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(selectField(scope, label)).toContainText(option);
}

/** Fills in one person of the Team Members form. */
export async function fillTeamMember(
  scope: Locator,
  person: { fullName: string; email: string; institution: string; role: string },
) {
  await textField(scope, 'Full name').fill(person.fullName);
  await textField(scope, 'Email').fill(person.email);
  await textField(scope, 'Institution').fill(person.institution);
  await choose(scope, 'Role in the project', person.role);
}

/** The badge of the editor's header that names who holds the lock. */
export function lockBadge(page: Page, holder: string): Locator {
  return page
    .getByRole('region', { name: 'About this proposal' })
    .getByText(`Locked by ${holder}`, { exact: true });
}

/** The editor's answers can be changed: its first form's title takes typing, and Save is there. */
export async function expectEditable(page: Page): Promise<void> {
  await expect(textField(page, 'Project title')).toBeEditable();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
}

/** The editor shows the answers but takes no change: no Save, and fields that refuse typing. */
export async function expectReadOnly(page: Page): Promise<void> {
  // Disabled fields while another editor holds it; a page to read, with no fields at all,
  // once it is no one's to change (submitted, past its deadline).
  const editable = page.locator('input:enabled:not([readonly]), textarea:enabled:not([readonly])');
  await expect(textField(page, 'Project title').and(editable)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save All', exact: true })).toHaveCount(0);
}

/** The choice the editor offers when someone else saved answers the person has changed. */
export function conflictDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Someone else saved answers you have changed' });
}

/**
 * The answers this browser keeps unsaved (the app's IndexedDB store of drafts), as a
 * person's next visit would find them: what a journey waits for before it reloads or
 * loses its session, since the app writes them a moment after the typing stops.
 */
export function keptAnswers(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    () =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const open = indexedDB.open('merit-drafts');
        // As the app makes it, should this run first: the app then finds its store.
        open.onupgradeneeded = () => open.result.createObjectStore('drafts');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('drafts', 'readonly').objectStore('drafts').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            db.close();
            resolve((all.result as { data: Record<string, unknown> }[]).map((draft) => draft.data));
          };
        };
      }),
  );
}
