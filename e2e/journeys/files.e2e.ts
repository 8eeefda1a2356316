import { readFile, writeFile } from 'node:fs/promises';
import type { Locator, Page, Request } from '@playwright/test';
import { checkA11y, expect, test } from '../fixtures';
import { makePdf } from '../files-support/pdf';
import { createFilesWorld, TYPE_NAME, type FilesWorld } from '../files-support/world';
import { createProposal } from '../proposals-support/api';
import { editorPath } from '../proposals-support/editor';
import { dismissNotification, logInAs, openManageMenu, textField } from '../support/pages';

/*
 * Files and the proposal PDF (issue 12; spec section 2, Manage Uploaded Files and Save PDF;
 * section 3, a file field's value is a file id; section 8, the upload alert): an author
 * uploads a PDF into a form's file field, finds it again after a reload and in Manage
 * Uploaded Files, downloads it, and saves the whole proposal as one PDF; an upload broken
 * off continues where it stopped; a file that is not a PDF is refused.
 */

let world: FilesWorld;

test.beforeAll(async () => {
  // A registration with captcha and mail, a committee, two forms and a call.
  test.setTimeout(90_000);
  world = await createFilesWorld();
});

/** The tus protocol's chunk: the editor sends a file in pieces of this many bytes. */
const CHUNK_BYTES = 524_288;

/** Three chunks: long enough for the progress bar to be seen moving. */
const CV = {
  name: 'cv-ada-lovelace.pdf',
  bytes: makePdf('Curriculum vitae of Ada Lovelace', { minBytes: 1_300_000 }),
};

const UPLOADS = '/api/v1/uploads/';
const isUpload = (url: URL) => url.pathname.startsWith(UPLOADS);
const isChunk = (request: Request) =>
  request.method() === 'PATCH' && isUpload(new URL(request.url()));

/**
 * The CV as a file on disk, as a person picks it: a file's identity to the browser
 * includes its modification time, which a file given as bytes would not keep between
 * two choices, and resuming needs the same file both times.
 */
async function cvOnDisk(): Promise<string> {
  const file = test.info().outputPath(CV.name);
  await writeFile(file, CV.bytes);
  return file;
}

/** The CV question of the Documents form. */
const cvField = (page: Page) => page.getByRole('group', { name: 'CV (PDF)' });

/** Picks `file` in the browser's file picker that `button` opens. */
async function chooseFile(page: Page, button: Locator, file: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

/** Holds each request whose path starts with `path` for `ms` first, as a slow network would. */
async function slowDown(page: Page, path: string, ms: number, method?: string): Promise<void> {
  await page.route(
    (url) => url.pathname.startsWith(path),
    async (route) => {
      if (!method || route.request().method() === method) {
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
      await route.continue();
    },
  );
}

/** Downloads the file `button` offers and checks that it is the CV, byte for byte. */
async function expectCvDownload(page: Page, button: Locator): Promise<void> {
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(CV.name);
  expect((await readFile(await download.path())).equals(CV.bytes)).toBe(true);
}

/** A draft proposal of the author's, opened in the editor. */
async function openNewProposal(page: Page, name: string): Promise<void> {
  const { author, authorToken, call } = world;
  const proposalId = await createProposal(authorToken, {
    callId: call.id,
    typeId: call.typeId,
    name,
  });
  await logInAs(page, author);
  await page.goto(editorPath(call.id, proposalId));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

const UPLOADED = `“${CV.name}” has been uploaded. Save the form to keep it in your answers.`;

test('an author uploads a PDF to a form, finds and downloads it, and saves the proposal as a PDF', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { author, call, formName } = world;
  const proposalName = `Magnetic domains ${Date.now().toString(36)}`;

  await logInAs(page, author);
  await page.goto(`/calls/${call.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: call.name })).toBeVisible();
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Add Proposal' }).click();
  await textField(page, 'Proposal Name').fill(proposalName);
  await page.getByRole('combobox', { name: 'Proposal Type' }).selectOption({ label: TYPE_NAME });
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: proposalName })).toBeVisible();
  await textField(page, 'Project title').fill('Domain walls in thin films');

  // The CV field takes a PDF, uploaded in chunks with a bar that says how far it is.
  const cv = cvField(page);
  await expect(cv).toContainText('A PDF of at most 25 MB.');
  await slowDown(page, UPLOADS, 500, 'PATCH');
  await chooseFile(page, cv.getByRole('button', { name: 'Upload PDF' }), await cvOnDisk());
  const bar = cv.getByRole('progressbar', { name: `Uploading ${CV.name}` });
  await expect(bar).toBeVisible();
  await expect(cv.getByText(/^Uploading cv-ada-lovelace\.pdf: \d+ %$/)).toBeVisible();
  await dismissNotification(page, UPLOADED);
  await expect(bar).toBeHidden();
  await expect(cv.getByText(CV.name)).toBeVisible();
  await expect(cv.getByRole('button', { name: 'Replace' })).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });
  await checkA11y(page);

  // Saved with the answers, it is there after a reload.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await dismissNotification(page, 'Saved successfully.');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: proposalName })).toBeVisible();
  await expect(cv.getByText(CV.name)).toBeVisible();
  await checkA11y(page);

  // Manage Uploaded Files lists it, with what it answers and who uploaded it.
  await (
    await openManageMenu(page)
  )
    .getByRole('menuitem', { name: 'Manage Uploaded Files' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Manage Uploaded Files' });
  const row = dialog
    .getByRole('table', { name: 'Uploaded files' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: CV.name, exact: true }) });
  await expect(row.getByRole('cell')).toHaveText([
    CV.name,
    `${formName}: CV (PDF)`,
    /^\d+(\.\d)? MB$/,
    author.fullName,
    /\d/,
    'Download',
    'Delete',
  ]);
  await checkA11y(page);

  // Downloaded, it is the very file that was uploaded, under its own name.
  await expectCvDownload(page, row.getByRole('button', { name: `Download ${CV.name}` }));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Save PDF: the page says it is making the PDF, then the browser saves it.
  await slowDown(page, '/api/v1/download_proposal_extract/', 1_000);
  const pdfDownload = page.waitForEvent('download');
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Save PDF' }).click();
  const making = page.getByRole('status').getByText(`Making the PDF of “${proposalName}”…`);
  await expect(making).toBeVisible();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toBe(`${proposalName}.pdf`);
  const pdfBytes = await readFile(await pdf.path());
  expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // What the author sees at the end: no PDF in the making, the CV still in its field.
  await expect(page.getByText(/Making the PDF of/)).toHaveCount(0);
  await expect(page.getByText('There was an error generating or downloading the PDF.')).toHaveCount(
    0,
  );
  await expect(cv.getByText(CV.name)).toBeVisible();
});

test('an upload broken off by a reload continues where it stopped when the same file is chosen again', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openNewProposal(page, `Broken connection ${Date.now().toString(36)}`);
  const cv = cvField(page);
  const file = await cvOnDisk();

  // The first chunk arrives; the second never does, as when the connection drops.
  let chunks = 0;
  let connected = false;
  await page.route(isUpload, async (route) => {
    if (!connected && isChunk(route.request()) && ++chunks > 1) return;
    await route.continue();
  });
  const firstChunk = page.waitForResponse((response) => isChunk(response.request()));
  await chooseFile(page, cv.getByRole('button', { name: 'Upload PDF' }), file);
  expect((await firstChunk).status()).toBe(204);
  await expect(cv.getByRole('progressbar', { name: `Uploading ${CV.name}` })).toBeVisible();

  // The page is reloaded mid-upload (the held chunk goes with it); the connection is back.
  await page.reload();
  connected = true;
  await expect(cv.getByRole('button', { name: 'Upload PDF' })).toBeVisible();
  await expect(cv.getByRole('progressbar')).toHaveCount(0);

  // The same file again: the browser asks the server how far it got and sends the rest,
  // from the first byte the server lacks, without starting a new upload.
  const created: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && isUpload(new URL(request.url())))
      created.push(request.url());
  });
  const resumed = page.waitForRequest(isChunk);
  await chooseFile(page, cv.getByRole('button', { name: 'Upload PDF' }), file);
  expect((await resumed).headers()['upload-offset']).toBe(String(CHUNK_BYTES));
  await dismissNotification(page, UPLOADED);
  expect(created).toEqual([]);

  // The file the server kept is whole: what the author sees downloads as the file chosen.
  await expect(cv.getByText(CV.name)).toBeVisible();
  await expectCvDownload(page, cv.getByRole('button', { name: `Download ${CV.name}` }));
});

test('a file that is not a PDF is refused by its contents, whatever its name says', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openNewProposal(page, `Wrong file ${Date.now().toString(36)}`);
  const cv = cvField(page);
  const notes = test.info().outputPath('notes.pdf');
  await writeFile(notes, 'These are plain-text notes, not a PDF.\n');

  await chooseFile(page, cv.getByRole('button', { name: 'Upload PDF' }), notes);
  const alert = page
    .getByRole('alert')
    .filter({ hasText: 'There was an issue uploading the file:' });
  await expect(alert).toContainText(
    'This field takes a PDF file only, and this file is not a PDF.',
  );
  await alert.getByRole('button', { name: 'Close' }).click();

  // Nothing was kept: the question still asks for a file, and the proposal has none.
  await expect(cv.getByRole('button', { name: 'Upload PDF' })).toBeEnabled();
  await (
    await openManageMenu(page)
  )
    .getByRole('menuitem', { name: 'Manage Uploaded Files' })
    .click();
  await expect(
    page
      .getByRole('dialog', { name: 'Manage Uploaded Files' })
      .getByText('No files have been uploaded to this proposal yet.', { exact: false }),
  ).toBeVisible();
});
