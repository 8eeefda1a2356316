import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { appSecrets } from '../../db/schema.js';

/**
 * Values shared by every app process on one database, each under its name in app_secrets:
 * written by whichever process comes first, then read from the database by all. Only what
 * a copy of the database may reveal without harm (the captcha's HMAC key, the server
 * secret's check value): keys that protect stored data derive from the server secret
 * outside the database (platform/security/server-key.ts).
 */

/**
 * The value stored under `name`: `value` when there was none (the first writer wins), else
 * the one already there. Of several processes writing at once, each reads back the same.
 */
export async function storedOnce(db: Tx, name: string, value: string): Promise<string> {
  await db.insert(appSecrets).values({ name, value }).onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
  return row!.value;
}

/** The value stored under `name`, or null while none is. */
export async function storedValue(db: Tx, name: string): Promise<string | null> {
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
  return row?.value ?? null;
}

/** A secret made at random by whichever process asks first, so no one has to configure it. */
export async function sharedSecret(db: Tx, name: string): Promise<string> {
  return storedOnce(db, name, randomBytes(32).toString('hex'));
}
