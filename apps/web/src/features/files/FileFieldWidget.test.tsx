import { fileMessages, MAX_UPLOAD_BYTES } from '@merit/domain';
import type { RJSFSchema } from '@rjsf/utils';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiCalls, stubApi } from '../../test/render-app';
import { renderInRouter } from '../../test/render-in-router';
import { SchemaForm } from '../forms/schema-form/SchemaForm';
import { proposalFormContext } from './file-field-context';
import { makeProposalFile } from './files.fixtures';

const SCHEMA: RJSFSchema = {
  type: 'object',
  properties: { cv: { type: 'string', format: 'data-url', title: 'CV (PDF)' } },
};

function renderField({
  cv,
  readonly = false,
  inEditor = true,
}: {
  cv?: string;
  readonly?: boolean;
  inEditor?: boolean;
}) {
  return renderInRouter(
    <SchemaForm
      schema={SCHEMA}
      formData={cv === undefined ? {} : { cv }}
      readonly={readonly}
      formContext={inEditor ? proposalFormContext({ proposalId: 30, formId: 1 }) : undefined}
    />,
  );
}

const field = () => screen.getByRole('group', { name: 'CV (PDF)' });

describe('FileFieldWidget', () => {
  it('shows the file a field holds by its name, with Download and Replace', async () => {
    stubApi({ 'GET /proposal_files/30/': { body: [makeProposalFile()] } });
    renderField({ cv: '12' });
    expect(await within(field()).findByText('cv.pdf')).toBeVisible();
    expect(within(field()).getByText('(240 KB)')).toBeVisible();
    expect(within(field()).getByRole('button', { name: 'Download cv.pdf' })).toBeVisible();
    expect(within(field()).getByRole('button', { name: 'Replace' })).toBeEnabled();
    expect(within(field()).getByText('A PDF of at most 25 MB.')).toBeVisible();
  });

  it('only shows and downloads the file where the form is read-only', async () => {
    stubApi({ 'GET /proposal_files/30/': { body: [makeProposalFile()] } });
    renderField({ cv: '12', readonly: true });
    expect(await within(field()).findByText('cv.pdf')).toBeVisible();
    expect(within(field()).getByRole('button', { name: 'Download cv.pdf' })).toBeVisible();
    expect(within(field()).queryByRole('button', { name: 'Replace' })).not.toBeInTheDocument();
  });

  it('says so when the file it held was deleted, and offers to upload another', async () => {
    stubApi({ 'GET /proposal_files/30/': { body: [] } });
    renderField({ cv: '12' });
    expect(
      await within(field()).findByText('The file uploaded here has been deleted.'),
    ).toBeVisible();
    expect(within(field()).getByRole('button', { name: 'Upload PDF' })).toBeEnabled();
  });

  it.each([
    ['a file that is not a PDF', new File(['hello'], 'notes.txt', { type: 'text/plain' })],
    [
      'a PDF over the limit',
      Object.defineProperty(new File(['%PDF-'], 'huge.pdf', { type: 'application/pdf' }), 'size', {
        value: MAX_UPLOAD_BYTES + 1,
      }),
    ],
  ])('refuses %s before sending anything', async (_case, file) => {
    // The picker's own filter is the browser's; a drop or "All files" gets past it.
    const user = userEvent.setup({ applyAccept: false });
    const fetchStub = stubApi({ 'GET /proposal_files/30/': { body: [] } });
    renderField({});
    await user.upload(within(field()).getByLabelText('Upload PDF'), file);
    const expected =
      file.name === 'notes.txt' ? fileMessages.notPdf : fileMessages.tooLarge(MAX_UPLOAD_BYTES);
    expect(await screen.findByText(expected)).toBeVisible();
    expect(apiCalls(fetchStub).filter((call) => call.includes('/uploads/'))).toEqual([]);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('cannot upload in the form builder’s preview, where there is no proposal', () => {
    renderField({ inEditor: false });
    expect(within(field()).getByRole('button', { name: 'Upload PDF' })).toBeDisabled();
    expect(
      within(field()).getByText('Authors upload a PDF here in the proposal editor.'),
    ).toBeVisible();
  });
});
