import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/render-app';
import { renderInRouter } from '../../../test/render-in-router';
import { makeProposalFile } from '../../files/files.fixtures';
import { AnswersView } from './AnswersView';
import { answerTo } from './editor.fixtures';
import { editorForms, type Answers } from './editor-state';

const SCHEMA: RJSFSchema = {
  type: 'object',
  required: ['title'],
  properties: {
    title: { type: 'string', title: 'Project title' },
    abstract: { type: 'string', title: 'Abstract' },
    instrument: {
      type: 'string',
      title: 'Instrument',
      oneOf: [
        { const: 'hrs', title: 'High-resolution spectrograph' },
        { const: 'cam', title: 'Wide-field camera' },
      ],
    },
    remote: { type: 'boolean', title: 'Observing remotely' },
    nights: { type: 'integer', title: 'Nights' },
    moon: {
      type: 'array',
      title: 'Moon phases',
      items: { type: 'string', enum: ['dark', 'grey'] },
    },
    contact: {
      type: 'object',
      title: 'Contact',
      properties: { email: { type: 'string', title: 'Email' } },
    },
    cv: { type: 'string', format: 'data-url', title: 'Scientific case (PDF)' },
    secret: { type: 'string', title: 'Internal note' },
    notes: { type: 'string', title: 'Notes' },
  },
};
const UI: UiSchema = {
  abstract: { 'ui:widget': 'textarea' },
  secret: { 'ui:widget': 'hidden' },
  moon: { 'ui:enumNames': ['Dark time', 'Grey time'] },
};

const [form] = editorForms([
  {
    id: 1,
    display_name: 'Observing Request',
    type: 0,
    jsonSchema: SCHEMA as Record<string, unknown>,
    uiSchema: UI as Record<string, unknown>,
    initialData: null,
  },
]);

function renderView(answers: Answers) {
  return renderInRouter(<AnswersView form={form!} answers={answers} proposalId={30} />);
}

describe('AnswersView', () => {
  it('lists each field’s title with its answer, as words to read, never as fields', async () => {
    stubApi({ 'GET /proposal_files/30/': { body: [makeProposalFile()] } });
    renderView({
      title: 'Dust <img src=x onerror=alert(1)> in the Bridge',
      abstract: 'First line.\nSecond line.',
      instrument: 'hrs',
      remote: false,
      nights: 3,
      moon: ['dark', 'grey'],
      contact: { email: 'ada@example.org' },
      cv: '12',
      secret: 'not for readers',
    });
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getAllByRole('term').map((term) => term.textContent)).toEqual([
      'Project title',
      'Abstract',
      'Instrument',
      'Observing remotely',
      'Nights',
      'Moon phases',
      'Contact',
      'Email',
      'Scientific case (PDF)',
      'Notes',
    ]);
    // Markup an author typed is text, as typed.
    expect(answerTo('Project title')).toHaveTextContent(
      'Dust <img src=x onerror=alert(1)> in the Bridge',
    );
    expect(document.querySelector('img')).toBeNull();
    expect(answerTo('Abstract').textContent).toBe('First line.\nSecond line.');
    // A choice by its label, yes or no, numbers as they are.
    expect(answerTo('Instrument')).toHaveTextContent('High-resolution spectrograph');
    expect(answerTo('Observing remotely')).toHaveTextContent('No');
    expect(answerTo('Nights')).toHaveTextContent('3');
    expect(
      within(answerTo('Moon phases'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Dark time', 'Grey time']);
    // A group's fields under its title.
    expect(within(answerTo('Contact')).getByText('Email', { selector: 'dt' })).toBeInTheDocument();
    expect(answerTo('Email')).toHaveTextContent('ada@example.org');
    // A file by its name, with Download.
    expect(await within(answerTo('Scientific case (PDF)')).findByText('cv.pdf')).toBeVisible();
    expect(
      within(answerTo('Scientific case (PDF)')).getByRole('button', { name: 'Download cv.pdf' }),
    ).toBeVisible();
    // Not answered says so; a hidden field is not shown.
    expect(answerTo('Notes')).toHaveTextContent('Not answered.');
    expect(screen.queryByText('not for readers')).not.toBeInTheDocument();
  });

  it('says when a file field holds no file, or its file was deleted', async () => {
    stubApi({ 'GET /proposal_files/30/': { body: [] } });
    renderView({ title: 'Dust', cv: '12' });
    expect(
      await within(answerTo('Scientific case (PDF)')).findByText(
        'The file uploaded here has been deleted.',
      ),
    ).toBeVisible();
  });
});
