import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultReminderRules } from '@merit/domain';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, committees, reminderRules } from '../src/db/schema.js';
import { freshDatabase } from './helpers.js';

/**
 * Migration 0024 gives every call not closed the default reminders, written out in SQL:
 * they must be `defaultReminderRules()`, word for word. The migration's own INSERT is run
 * here (read from the file) on a database with an open and a closed call made without
 * rules, and what it wrote is compared with the domain's defaults.
 */
const migration = readFileSync(
  path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '../src/db/migrations/0024_reminders_history.sql',
  ),
  'utf8',
);
const insertDefaults = migration
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .find((statement) => statement.includes('INSERT INTO "reminder_rules"'))!;

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(() => fresh.drop());

describe('migration 0024', () => {
  it('gives each call not closed the default rules, as the domain writes them', async () => {
    const { db } = fresh.database;
    const [committee] = await db
      .insert(committees)
      .values({ name: 'Migrated committee' })
      .returning();
    const at = new Date('2026-06-01T00:00:00Z');
    const call = (name: string, closed: boolean) =>
      db
        .insert(calls)
        .values({
          committeeId: committee!.id,
          name,
          commencement: at,
          termination: at,
          reviewCommencement: at,
          reviewTermination: at,
          closed,
          createdAt: at,
          lastModified: at,
        })
        .returning({ id: calls.id });
    const [open] = await call('Open before the migration', false);
    const [closed] = await call('Closed before the migration', true);

    expect(insertDefaults).toBeDefined();
    await db.execute(sql.raw(insertDefaults));

    const rulesOf = (callId: number) =>
      db
        .select()
        .from(reminderRules)
        .where(eq(reminderRules.callId, callId))
        .orderBy(asc(reminderRules.position));
    const written = await rulesOf(open!.id);
    expect(
      written.map((rule) => ({
        audience: rule.audience,
        anchor: rule.anchor,
        offsetHours: rule.offsetHours,
        enabled: rule.enabled,
        subject: rule.subject,
        body: rule.body,
      })),
    ).toEqual(defaultReminderRules());
    expect(written.map((rule) => rule.position)).toEqual([0, 1, 2, 3, 4]);
    // From the migration on: none reaches back to a due time before it.
    for (const rule of written) expect(rule.since.getTime()).toBeGreaterThan(at.getTime());
    expect(await rulesOf(closed!.id)).toEqual([]);
  });
});
