import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { appSecrets } from '../db/schema.js';

/**
 * A secret shared by every app process: made at random by whichever process asks first,
 * then read from the database by all, so no one has to configure it. Only for what a copy
 * of the database may reveal without harm (the captcha's HMAC key): keys that protect
 * stored data derive from the server secret outside the database (lib/server-key.ts).
 */
export async function sharedSecret(db: Tx, name: string): Promise<string> {
  await db
    .insert(appSecrets)
    .values({ name, value: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
  return row!.value;
}
