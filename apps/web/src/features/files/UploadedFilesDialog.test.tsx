import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { apiCalls, sentBody, stubApi } from '../../test/render-app';
import { renderInRouter } from '../../test/render-in-router';
import { makeProposalFile } from './files.fixtures';
import { UploadedFilesDialog, type FileForm } from './UploadedFilesDialog';

const FORMS: FileForm[] = [
  {
    id: 1,
    name: 'Documents',
    schema: { properties: { cv: { type: 'string', format: 'data-url', title: 'CV (PDF)' } } },
  },
];

const cv = makeProposalFile();
const letter = makeProposalFile({
  id: 13,
  name: 'support letter.docx',
  size: 900,
  contentType: 'application/octet-stream',
  formId: null,
  field: null,
  uploadedBy: 'Charles Babbage',
  uploaded: '2026-03-03T10:00:00.000Z',
});

function openDialog(editable: boolean) {
  return renderInRouter(
    <UploadedFilesDialog
      proposalId={30}
      forms={FORMS}
      editable={editable}
      open
      onClose={() => {}}
    />,
  );
}

/** The body rows of the files table, as the text of their first four cells. */
async function rows() {
  const table = await screen.findByRole('table', { name: 'Uploaded files' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 4)
        .map((cell) => cell.textContent),
    );
}

describe('UploadedFilesDialog', () => {
  it('lists the files, newest first, with what each is for, and deletes one after asking', async () => {
    const user = userEvent.setup();
    let files = [cv, letter];
    const fetchStub = stubApi({
      'GET /proposal_files/30/': () => ({ body: files }),
      'DELETE /proposal_file/': () => {
        files = [letter];
        return { status: 204 };
      },
    });
    openDialog(true);

    expect(await rows()).toEqual([
      ['support letter.docx', 'Attachment', '900 bytes', 'Charles Babbage'],
      ['cv.pdf', 'Documents: CV (PDF)', '240 KB', 'Ada Lovelace'],
    ]);
    expect(screen.getByRole('button', { name: 'Download cv.pdf' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Upload a file' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Delete cv.pdf' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete this file?' });
    expect(confirm).toHaveTextContent('“cv.pdf” will be deleted. This cannot be undone.');
    // Cancel first: nothing is sent.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(apiCalls(fetchStub)).not.toContain('DELETE /proposal_file/');

    // Found again once the closing confirmation no longer hides the rest.
    await user.click(await screen.findByRole('button', { name: 'Delete cv.pdf' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete this file?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('“cv.pdf” has been deleted.')).toBeInTheDocument();
    expect(sentBody(fetchStub, 'DELETE /proposal_file/')).toEqual({ proposal: 30, file: 12 });
    expect(await rows()).toEqual([
      ['support letter.docx', 'Attachment', '900 bytes', 'Charles Babbage'],
    ]);
  });

  it('offers Download but neither Delete nor uploads to someone who may not change the proposal', async () => {
    stubApi({ 'GET /proposal_files/30/': { body: [cv, letter] } });
    openDialog(false);

    expect(await rows()).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Download support letter.docx' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload a file' })).not.toBeInTheDocument();
  });

  it('says how to add a file when there is none yet, and only that there is none to a reader', async () => {
    stubApi({ 'GET /proposal_files/30/': { body: [] } });
    const view = openDialog(true);
    expect(
      await screen.findByText(
        'No files have been uploaded to this proposal yet. Upload a PDF in a form’s file field, or attach a file below.',
      ),
    ).toBeVisible();
    view.unmount();

    openDialog(false);
    expect(await screen.findByText('No files have been uploaded to this proposal.')).toBeVisible();
  });

  it('downloads a file through a single-use ticket, never with the token in the address', async () => {
    const user = userEvent.setup();
    const fetchStub = stubApi({
      'GET /proposal_files/30/': { body: [cv] },
      'POST /download_tickets/': {
        body: { url: '/api/v1/files/12/?ticket=once', expires: '2026-03-02T10:01:00.000Z' },
      },
    });
    // jsdom cannot download; the link the page follows is what matters.
    const followed: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(this.getAttribute('href') ?? '');
    });
    onTestFinished(() => click.mockRestore());
    openDialog(false);

    await user.click(await screen.findByRole('button', { name: 'Download cv.pdf' }));
    expect(sentBody(fetchStub, 'POST /download_tickets/')).toEqual({ fileId: 12 });
    expect(followed).toEqual(['/api/v1/files/12/?ticket=once']);
  });
});
