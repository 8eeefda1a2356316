import type { App } from '../src/app.js';
import { and, asc, eq } from 'drizzle-orm';
import { auditLog, formNames, forms } from '../src/db/schema.js';

/** A simple object schema with one numeric field, valid for every form type's checks. */
export const simpleSchema = {
  type: 'object',
  properties: { title: { type: 'string' }, score: { type: 'integer', minimum: 1, maximum: 5 } },
};

let seq = 0;

/** A form name straight in the database, with a unique name unless told. */
export async function makeFormName(
  app: App,
  overrides: Partial<typeof formNames.$inferInsert> = {},
) {
  seq += 1;
  const [row] = await app.db
    .insert(formNames)
    .values({
      name: `form_${seq}_${Date.now()}`,
      displayName: `Form ${seq}`,
      type: 0,
      ...overrides,
    })
    .returning();
  return row!;
}

/** A form straight in the database (no checks), under `formNameId`. */
export async function makeForm(
  app: App,
  formNameId: number,
  overrides: Partial<typeof forms.$inferInsert> = {},
) {
  seq += 1;
  const [row] = await app.db
    .insert(forms)
    .values({
      formNameId,
      version: `v${seq}`,
      jsonSchema: simpleSchema,
      uiSchema: {},
      ...overrides,
    })
    .returning();
  return row!;
}

/** The audit rows of one entity, oldest first. */
export async function auditOf(app: App, entityType: string, entityId: number) {
  return app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)))
    .orderBy(asc(auditLog.id));
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A JSON request to /api/v1 as whoever `headers` say. */
export function caller(app: App, headers: Record<string, string>) {
  return (method: Method, path: string, payload?: unknown) =>
    app.inject({
      method,
      url: `/api/v1${path}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
}
