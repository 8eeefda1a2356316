import { describe, expect, it } from 'vitest';
import {
  answerSchema,
  displayFileName,
  fileFields,
  fileMessages,
  formatBytes,
  isPdf,
  MAX_UPLOAD_BYTES,
} from './files.js';

describe('files', () => {
  it.each([
    [MAX_UPLOAD_BYTES, '25 MB'],
    [1_572_864, '1.5 MB'],
    [524_288, '512 KB'],
    [900, '900 bytes'],
  ])('writes %i bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('says the limit when a file is too large', () => {
    expect(fileMessages.tooLarge(MAX_UPLOAD_BYTES)).toBe(
      'The file is larger than 25 MB, the most a file may be.',
    );
  });

  it.each([
    ['a PDF', '%PDF-1.7\n', true],
    ['a PDF with nothing after the marker', '%PDF-', true],
    ['text named .pdf', 'hello', false],
    ['a marker too short', '%PDF', false],
    ['an empty file', '', false],
  ])('recognises %s from its bytes', (_name, text, pdf) => {
    expect(isPdf(new TextEncoder().encode(text))).toBe(pdf);
  });

  const schema = {
    type: 'object',
    properties: {
      cv: { type: 'string', format: 'data-url', title: 'CV' },
      budget: { type: 'string', title: 'Budget' },
      count: { type: 'integer' },
      note: { type: 'string', format: 'email' },
    },
  };

  it('finds file fields by format or by widget', () => {
    expect(fileFields(schema)).toEqual(['cv']);
    expect(fileFields(schema, { budget: { 'ui:widget': 'file' } })).toEqual(['cv', 'budget']);
  });

  it('checks file fields as file ids, and leaves the rest as the form has it', () => {
    const checked = answerSchema(schema, { budget: { 'ui:widget': 'file' } }) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(checked.properties.cv).toEqual({
      type: 'string',
      title: 'CV',
      pattern: '^[1-9][0-9]*$',
    });
    expect(checked.properties.budget).toEqual({
      type: 'string',
      title: 'Budget',
      pattern: '^[1-9][0-9]*$',
    });
    expect(checked.properties.note).toEqual({ type: 'string', format: 'email' });
    expect(answerSchema({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });

  it.each([
    ['C:\\Users\\ada\\cv.pdf', 'cv.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['budget\u0007 2027.pdf', 'budget 2027.pdf'],
    ['', 'file'],
    [`${'x'.repeat(300)}.pdf`, 'x'.repeat(255)],
  ])('keeps %j as %j for display', (name, shown) => {
    expect(displayFileName(name)).toBe(shown);
  });
});
