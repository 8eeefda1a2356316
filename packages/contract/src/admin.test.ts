import { describe, expect, it } from 'vitest';
import { formOptions, idBody, formSave, idParams, roleRequest, userAdminUpdate } from './index.js';

const messagesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const idMessage = 'Expected an id: a whole number from 1 to 2147483647.';

describe('ids', () => {
  it.each([
    [{}, { id: 'This field is required.' }],
    [{ id: 0 }, { id: idMessage }],
    [{ id: 1.5 }, { id: idMessage }],
    [{ id: 2_147_483_648 }, { id: idMessage }],
    [{ id: '3' }, { id: idMessage }],
    [{ id: 2_147_483_647 }, {}],
  ])('in a body: %j -> %j', (body, expected) => {
    expect(messagesOf(idBody.safeParse(body))).toEqual(expected);
  });

  it.each([
    ['12', true],
    ['2147483647', true],
    ['abc', false],
    ['0', false],
    ['2147483648', false],
    ['99999999999', false],
    // Number() reads each of these as 1; only the canonical spelling names the resource.
    [' 1', false],
    ['1e0', false],
    ['0x1', false],
    ['+1', false],
    ['1.0', false],
    ['01', false],
    ['', false],
  ])('in a path: %j -> %s', (id, ok) => {
    const parsed = idParams.safeParse({ id });
    expect(parsed.success).toBe(ok);
    if (ok) expect(parsed.data).toEqual({ id: Number(id) });
  });
});

describe('form payloads', () => {
  const valid = { isNew: true, name: 1, version: '1', jsonSchema: { type: 'object' } };
  it('accept a minimal new form', () => {
    expect(formSave.safeParse(valid).success).toBe(true);
  });
  it.each([
    ['a list', { ...valid, jsonSchema: [] }, 'jsonSchema'],
    ['a string', { ...valid, jsonSchema: 'x' }, 'jsonSchema'],
    ['options as a list', { ...valid, options: ['a'] }, 'options'],
  ])('word %s where an object belongs for people', (_name, body, field) => {
    expect(messagesOf(formSave.safeParse(body))).toEqual({
      [field]: 'This must be a JSON object.',
    });
  });
  it.each([
    [{ method: 'average', fields: ['a'] }, true],
    [{ institution_field: null, data_fields: ['a'] }, true],
    [null, true],
    [{ method: 'average', fields: ['a'], extra: 1 }, false],
    [{ method: 'mean', fields: ['a'] }, false],
  ])('describe stored options: %j -> %s', (options, ok) => {
    expect(formOptions.safeParse(options).success).toBe(ok);
  });
});

describe('admin payloads', () => {
  it('let PATCH /users/{id}/ change only the two flags', () => {
    expect(userAdminUpdate.safeParse({ is_admin: true }).success).toBe(true);
    expect(userAdminUpdate.safeParse({ email: 'x@example.org' }).success).toBe(false);
  });
  it('leave the role rules to the domain, so every field error comes back at once', () => {
    expect(roleRequest.safeParse({}).success).toBe(true);
    expect(roleRequest.safeParse({ committeeId: null, role: null }).success).toBe(true);
  });
});
