import {
  fileFields,
  FORM_TYPES,
  formMessages,
  formOptionMessages as o,
  type FormType,
} from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormDefinition } from '../src/modules/forms/form-access.js';
import { FORM_EXAMPLES } from '../src/modules/forms/form-examples.js';
import { auditOf, caller, makeForm, makeFormName, simpleSchema } from './admin-fixtures.js';
import { auth, createTestApp, login, makeUser, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof makeUser>>;
let asAdmin: ReturnType<typeof caller>;
const formNameOf: Partial<Record<FormType, number>> = {};

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await makeUser(ctx.app, { isAdmin: true });
  asAdmin = caller(ctx.app, auth(await login(ctx.app, admin.username)));
  for (const type of FORM_TYPES) formNameOf[type] = (await makeFormName(ctx.app, { type })).id;
});
afterAll(() => ctx.close());

let versions = 0;
/** A valid new form of `type`, with a version not used before. */
function newForm(type: FormType, overrides: Record<string, unknown> = {}) {
  versions += 1;
  const options =
    type === 3
      ? { method: 'average', fields: ['score'] }
      : type === 4 || type === 5
        ? { institution_field: 'title', data_fields: ['score'] }
        : null;
  return {
    isNew: true,
    name: formNameOf[type],
    version: `1.${versions}`,
    jsonSchema: simpleSchema,
    uiSchema: { title: { 'ui:autofocus': true } },
    options,
    ...overrides,
  };
}

describe('POST /forms/ with isNew: create', () => {
  it.each([...FORM_TYPES])('creates a form of type %i and audits it', async (type) => {
    const body = { ...newForm(type), initialData: { title: 'Untitled' } };
    const res = await asAdmin('POST', '/forms/', body);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      name: formNameOf[type],
      display_name: expect.any(String),
      type,
      version: body.version,
      jsonSchema: simpleSchema,
      uiSchema: body.uiSchema,
      initialData: { title: 'Untitled' },
      options: body.options,
      isUsed: false,
    });
    expect(await auditOf(ctx.app, 'form', created.id)).toMatchObject([
      {
        action: 'form.create',
        actorId: admin.id,
        changes: {
          name: { after: created.name },
          version: { after: created.version },
          jsonSchema: { after: created.jsonSchema },
          uiSchema: { after: created.uiSchema },
          initialData: { after: created.initialData },
          options: { after: created.options },
        },
      },
    ]);
    const one = await asAdmin('GET', `/forms/?id=${created.id}`);
    expect(one.json()).toEqual(created);
  });

  it('stores an empty UI schema and no initial data when they are left out', async () => {
    const { uiSchema: _ui, ...body } = newForm(0);
    const res = await asAdmin('POST', '/forms/', { ...body, options: {} });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ uiSchema: {}, initialData: null, options: null });
  });

  it('marks the form name as used', async () => {
    const formName = await makeFormName(ctx.app);
    await asAdmin('POST', '/forms/', newForm(0, { name: formName.id }));
    const names = (await asAdmin('GET', '/form_names/')).json() as {
      id: number;
      isUsed: boolean;
    }[];
    expect(names.find((n) => n.id === formName.id)?.isUsed).toBe(true);
  });
});

describe('POST /forms/: what a form must be', () => {
  const schemaError = (res: {
    json: () => { detail: string; fields: Record<string, string[]> };
  }) => {
    const body = res.json();
    expect(body.detail).toBe(formMessages.notSaved);
    return body.fields;
  };

  it('refuses a schema that does not compile, saying why', async () => {
    const res = await asAdmin(
      'POST',
      '/forms/',
      newForm(0, { jsonSchema: { type: 'object', properties: { a: { type: 'text' } } } }),
    );
    expect(res.statusCode).toBe(400);
    const fields = schemaError(res);
    expect(Object.keys(fields)).toEqual(['jsonSchema']);
    expect(fields.jsonSchema![0]).toMatch(/^There is an error in the schema, schema is invalid: /);
    expect(fields.jsonSchema![0]).toContain('properties/a/type');
  });

  it.each([
    [
      'an unresolvable $ref',
      { type: 'object', properties: { a: { $ref: '#/definitions/x' } } },
      /can't resolve reference/,
    ],
    [
      'a broken pattern',
      { type: 'object', properties: { a: { type: 'string', pattern: '(' } } },
      /Invalid regular expression/,
    ],
    ['a misspelt required', { type: 'object', required: 'a' }, /required must be array/],
  ])('refuses %s', async (_name, jsonSchema, reason) => {
    const res = await asAdmin('POST', '/forms/', newForm(0, { jsonSchema }));
    expect(res.statusCode).toBe(400);
    expect(schemaError(res).jsonSchema![0]).toMatch(reason);
  });

  it.each([
    ['a string schema', { type: 'string' }, [formMessages.schemaRootNotObject]],
    [
      'properties as a list',
      { type: 'object', properties: [] },
      [formMessages.propertiesNotObject],
    ],
  ])('refuses %s', async (_name, jsonSchema, messages) => {
    const res = await asAdmin('POST', '/forms/', newForm(0, { jsonSchema }));
    expect(res.statusCode).toBe(400);
    expect(schemaError(res).jsonSchema).toEqual(messages);
  });

  it('accepts keywords and formats the form widgets use', async () => {
    const jsonSchema = {
      type: 'object',
      properties: {
        colour: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
        picture: { type: 'string', format: 'data-url' },
        start: { type: 'string', format: 'date' },
        shade: { type: 'string', format: 'color' },
      },
    };
    const res = await asAdmin('POST', '/forms/', newForm(0, { jsonSchema }));
    expect(res.statusCode, res.body).toBe(201);
  });

  it.each([
    ['a list', [], 'jsonSchema'],
    ['a string', 'schema', 'jsonSchema'],
  ])('refuses a JSON schema that is %s', async (_name, jsonSchema, field) => {
    const res = await asAdmin('POST', '/forms/', newForm(0, { jsonSchema }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toEqual(['This must be a JSON object.']);
  });

  it.each<[string, FormType, unknown, Record<string, string[]>]>([
    [
      'options on a type 0 form',
      0,
      { method: 'total', fields: ['score'] },
      { options: [o.none(0)] },
    ],
    ['no options on a type 3 form', 3, null, { options: [o.required(3)] }],
    ['no options on a type 5 form', 5, undefined, { options: [o.required(5)] }],
    [
      'an unknown method',
      3,
      { method: 'median', fields: ['score'] },
      { 'options.method': [o.method] },
    ],
    [
      'an extra option',
      3,
      { method: 'total', fields: ['score'], weights: [1] },
      { options: [o.unknownOption('weights', ['method', 'fields'])] },
    ],
    [
      'a text score field',
      3,
      { method: 'total', fields: ['title'] },
      { 'options.fields': [o.fieldNotNumeric('title')] },
    ],
    [
      'a score field the schema lacks',
      3,
      { method: 'average', fields: ['merit'] },
      { 'options.fields': [o.fieldMissing('merit')] },
    ],
    [
      'a facility field the schema lacks',
      4,
      { institution_field: 'site', data_fields: ['score'] },
      { 'options.institution_field': [o.fieldMissing('site')] },
    ],
    [
      'a text data field',
      5,
      { institution_field: null, data_fields: ['title'] },
      { 'options.data_fields': [o.fieldNotNumeric('title')] },
    ],
    [
      'no data fields',
      4,
      { institution_field: null, data_fields: [] },
      { 'options.data_fields': [o.emptyList('data_fields')] },
    ],
  ])('refuses %s', async (_name, type, options, fields) => {
    const res = await asAdmin('POST', '/forms/', newForm(type, { options }));
    expect(res.statusCode, res.body).toBe(400);
    expect(schemaError(res)).toEqual(fields);
  });

  it('refuses options that are not an object', async () => {
    const res = await asAdmin('POST', '/forms/', newForm(3, { options: ['score'] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.options).toEqual(['This must be a JSON object.']);
  });

  it.each([
    ['no version', { version: '' }, ['This field is required.']],
    [
      'a version over 20 characters',
      { version: 'v'.repeat(21) },
      ['Ensure this field has no more than 20 characters.'],
    ],
  ])('refuses %s', async (_name, change, messages) => {
    const res = await asAdmin('POST', '/forms/', newForm(0, change));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ detail: expect.any(String), fields: { version: messages } });
  });

  it('reports every problem at once', async () => {
    const res = await asAdmin(
      'POST',
      '/forms/',
      newForm(3, {
        version: '',
        jsonSchema: { type: 'object', properties: { a: { type: 'x' } } },
        options: null,
      }),
    );
    expect(Object.keys(res.json().fields).sort()).toEqual(['jsonSchema', 'options', 'version']);
  });

  it('refuses a version the form name already has, in any case', async () => {
    const first = await asAdmin('POST', '/forms/', newForm(0, { version: 'Draft-A' }));
    expect(first.statusCode).toBe(201);
    const again = await asAdmin('POST', '/forms/', newForm(0, { version: 'draft-a' }));
    expect(again.statusCode).toBe(400);
    expect(again.json().fields).toEqual({ version: [formMessages.versionTaken] });
  });

  it('refuses a form name that does not exist, or none', async () => {
    const missing = await asAdmin('POST', '/forms/', newForm(0, { name: 999999 }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ name: [formMessages.formNameMissing] });
    const none = await asAdmin('POST', '/forms/', newForm(0, { name: null }));
    expect(none.json().fields).toEqual({ name: ['This field is required.'] });
  });
});

describe('POST /forms/ with formId: replace', () => {
  it('replaces the definition and audits before and after', async () => {
    const created = (await asAdmin('POST', '/forms/', newForm(3))).json();
    const jsonSchema = {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'number' } },
    };
    const res = await asAdmin('POST', '/forms/', {
      ...newForm(3, { jsonSchema, options: { method: 'total', fields: ['a', 'b'] } }),
      isNew: false,
      formId: created.id,
      version: created.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expect(updated).toMatchObject({
      id: created.id,
      version: created.version,
      jsonSchema,
      options: { method: 'total', fields: ['a', 'b'] },
    });
    const rows = await auditOf(ctx.app, 'form', created.id);
    expect(rows.map((r) => r.action)).toEqual(['form.create', 'form.update']);
    // Only what changed: the schema and the options, each before and after.
    expect(rows[1]!.changes).toEqual({
      jsonSchema: { before: created.jsonSchema, after: updated.jsonSchema },
      options: { before: created.options, after: updated.options },
    });
  });

  it('keeps the form name when the edit leaves it out, and checks options against it', async () => {
    const created = (await asAdmin('POST', '/forms/', newForm(4))).json();
    const res = await asAdmin('POST', '/forms/', {
      isNew: false,
      formId: created.id,
      version: created.version,
      jsonSchema: simpleSchema,
      options: null,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ options: [o.required(4)] });
  });

  it('answers 404 for a form that does not exist and 400 without formId', async () => {
    const missing = await asAdmin('POST', '/forms/', {
      ...newForm(0),
      isNew: false,
      formId: 999999,
    });
    expect(missing.statusCode).toBe(404);
    const noId = await asAdmin('POST', '/forms/', { ...newForm(0), isNew: false });
    expect(noId.statusCode).toBe(400);
    expect(Object.keys(noId.json().fields)).toEqual(['formId']);
  });
});

describe('GET /forms/ and DELETE /forms/', () => {
  it('lists forms, finds one by id, and answers 404 for an unknown id', async () => {
    const formName = await makeFormName(ctx.app, { type: 2 });
    const row = await makeForm(ctx.app, formName.id, { version: '9' });
    const list = (await asAdmin('GET', '/forms/')).json() as { id: number }[];
    expect(list.find((f) => f.id === row.id)).toMatchObject({
      id: row.id,
      name: formName.id,
      display_name: formName.displayName,
      type: 2,
      version: '9',
      isUsed: false,
    });
    expect((await asAdmin('GET', '/forms/?id=999999')).statusCode).toBe(404);
    expect((await asAdmin('GET', '/forms/?id=x')).statusCode).toBe(400);
  });

  it('deletes an unused form, audits it, and then answers 404', async () => {
    const created = (await asAdmin('POST', '/forms/', newForm(1))).json();
    const res = await asAdmin('DELETE', '/forms/', { id: created.id });
    expect(res.statusCode).toBe(204);
    expect((await asAdmin('GET', `/forms/?id=${created.id}`)).statusCode).toBe(404);
    const rows = await auditOf(ctx.app, 'form', created.id);
    expect(rows.map((r) => r.action)).toEqual(['form.create', 'form.delete']);
    expect(rows[1]!.changes).toMatchObject({
      version: { before: created.version },
      jsonSchema: { before: created.jsonSchema },
    });
    expect(Object.values(rows[1]!.changes).every((change) => !('after' in change))).toBe(true);
    expect((await asAdmin('DELETE', '/forms/', { id: created.id })).statusCode).toBe(404);
  });
});

describe('GET /form_examples/', () => {
  it('offers the six examples with their types', async () => {
    const res = await asAdmin('GET', '/form_examples/');
    expect(res.statusCode).toBe(200);
    expect((res.json() as { key: string; type: number }[]).map((e) => [e.key, e.type])).toEqual([
      ['project-description', 0],
      ['team-member', 1],
      ['resource-request', 5],
      ['instrument-request', 5],
      ['review', 2],
      ['review-score', 3],
    ]);
  });

  it.each(FORM_EXAMPLES.map((e) => [e.key, e] as const))(
    '%s passes the checks of a saved form',
    async (_key, example) => {
      expect(checkFormDefinition(example.type, { version: '1', ...example })).toEqual({
        ok: true,
        options: example.options,
      });
      // And saves through the API as an admin would, from a new form name.
      const formName = await asAdmin('POST', '/form_names/', {
        name: example.name,
        display_name: example.display_name,
        type: example.type,
      });
      expect(formName.statusCode, formName.body).toBe(201);
      const saved = await asAdmin('POST', '/forms/', {
        isNew: true,
        name: formName.json().id,
        version: '1.0',
        jsonSchema: example.jsonSchema,
        uiSchema: example.uiSchema,
        options: example.options,
      });
      expect(saved.statusCode, saved.body).toBe(201);
    },
  );

  it('shows how a file field is made, and words the review comments for their readers', () => {
    const byKey = new Map(FORM_EXAMPLES.map((e) => [e.key, e]));
    const project = byKey.get('project-description')!;
    expect(fileFields(project.jsonSchema, project.uiSchema)).toEqual(['supporting_document']);
    const review = byKey.get('review')!.jsonSchema as {
      properties: Record<string, { title?: string }>;
    };
    const titles = Object.values(review.properties).map((p) => p.title);
    expect(titles).toContain('Comments to the committee');
    expect(titles.join(' ')).not.toMatch(/authors/i);
  });
});
