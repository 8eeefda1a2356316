import { api, logInApi } from '../calls-support/api';
import { createAssignmentWorld, type AssignmentWorld } from '../assignment-support/world';
import { checkA11y, expect, test } from '../fixtures';
import { dismissNotification, logInAs, logOut, openManageMenu } from '../support/pages';

/*
 * Reviewer assignment for a whole call (issue 27): the chair opens bidding, two members
 * bid, the chair proposes assignments, reads the preview and applies it, and a member
 * finds the new proposals on Pending Reviews. The matrix then takes one assignment back
 * and makes it again.
 */

let world: AssignmentWorld;

test.beforeAll(async () => {
  // Seven registrations with captcha and mail, a committee, three forms, a call, three proposals.
  test.setTimeout(120_000);
  world = await createAssignmentWorld();
});

interface Reviewers {
  reviewers?: { id: number; name: string }[];
}

test('the chair opens bidding, members bid, and Propose, Apply and the matrix assign reviewers', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { call, proposals, chair, grace, hedy } = world;
  const { bridge, stream } = proposals;

  // --- Carla sets k and opens bidding ------------------------------------------------
  await logInAs(page, chair);
  await page.goto(`/calls/${call.id}/`);
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Assign Reviewers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Assign Reviewers' })).toBeVisible();
  // Three proposals, four members (Carla chairs, and chairs are members).
  await expect(
    page.getByText(/3 proposals · 9 reviews wanted · 0 assigned · 4 members/),
  ).toBeVisible();
  await page.getByLabel('Reviews per proposal (k)').fill('2');
  await page.getByLabel('Bidding open').check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(
    page.getByText(/3 proposals · 6 reviews wanted · 0 assigned · 4 members/),
  ).toBeVisible();
  await checkA11y(page);
  await logOut(page, chair.username);

  // --- Grace and Hedy bid ------------------------------------------------------------
  const bid = async (
    member: typeof grace,
    choices: { name: string; label: 'Eager' | 'Not me' }[],
  ) => {
    await logInAs(page, member);
    await page.goto(`/calls/${call.id}/`);
    await page.getByRole('link', { name: 'Bid on Proposals' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Bid on Proposals' })).toBeVisible();
    for (const { name, label } of choices) {
      const button = page.getByRole('button', { name: `${name}: ${label}` });
      await button.click();
      await expect(button).toHaveAttribute('aria-pressed', 'true');
    }
    // Saved at once: the bids are there when the page is read again.
    await page.reload();
    for (const { name, label } of choices)
      await expect(page.getByRole('button', { name: `${name}: ${label}` })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
    await checkA11y(page);
    await logOut(page, member.username);
  };
  await bid(grace, [
    { name: bridge.name, label: 'Eager' },
    { name: stream.name, label: 'Not me' },
  ]);
  await bid(hedy, [{ name: stream.name, label: 'Eager' }]);

  // --- Carla proposes, reads the preview and applies it ------------------------------
  await logInAs(page, chair);
  await page.goto(`/calls/${call.id}/assignment`);
  await page.getByRole('button', { name: 'Propose assignments' }).click();
  const preview = page.getByRole('region', { name: 'Proposed assignments' });
  await expect(preview).toBeVisible({ timeout: 60_000 });
  await expect(preview).toContainText('6 to add · 0 to take back · 0 proposals short');
  await preview.getByRole('tab', { name: 'By proposal' }).click();
  const bridgeRow = preview.getByRole('row').filter({ hasText: bridge.name });
  await expect(bridgeRow).toContainText(grace.fullName);
  await expect(bridgeRow).toContainText('Eager');
  const streamRow = preview.getByRole('row').filter({ hasText: stream.name });
  await expect(streamRow).toContainText(hedy.fullName);
  // "Not me" is never overridden.
  await expect(streamRow).not.toContainText(grace.fullName);
  await checkA11y(page);
  await preview.getByRole('button', { name: 'Apply' }).click();
  await dismissNotification(page, 'Assigned 6 reviews; 4 members were told by mail.');

  const chairToken = await logInApi(chair);
  const reviewersOf = async (proposalId: number) =>
    (
      await api<Reviewers>('GET', `/proposals/${proposalId}/`, { token: chairToken })
    ).reviewers?.map((r) => r.name) ?? [];
  expect(await reviewersOf(bridge.id)).toContain(grace.fullName);
  await logOut(page, chair.username);

  // --- Grace finds her new proposal on Pending Reviews -------------------------------
  await logInAs(page, grace);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'My Pending Reviews' })
    .click();
  const pending = page.getByRole('table', { name: 'My Pending Reviews' });
  await expect(pending.getByRole('row').filter({ hasText: bridge.name })).toContainText(call.name);
  await expect(pending.getByRole('row').filter({ hasText: stream.name })).toHaveCount(0);
  await logOut(page, grace.username);

  // --- The matrix takes Grace off the Bridge, and puts her back ----------------------
  await logInAs(page, chair);
  await page.goto(`/calls/${call.id}/assignment`);
  await page.getByRole('link', { name: 'Open the matrix' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Assignment Matrix' })).toBeVisible();
  await page.getByLabel('Search proposals').fill(bridge.name);
  const cell = page.getByRole('button', {
    name: new RegExp(`^${bridge.name} — ${grace.fullName}: `),
  });
  await expect(cell).toHaveAccessibleName(/: Assigned/);
  await checkA11y(page);
  await cell.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(cell).toHaveAccessibleName(/: Not assigned/);
  expect(await reviewersOf(bridge.id)).not.toContain(grace.fullName);
  await cell.click();
  await expect(cell).toHaveAccessibleName(/: Assigned/);
  expect(await reviewersOf(bridge.id)).toContain(grace.fullName);
});
