import { createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { verify } from 'altcha-lib/frameworks/shared';
import type { Challenge } from 'altcha-lib/types';
import { lt } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { captchaUses } from '../../db/schema.js';
import { sharedSecret } from './app-secrets.js';

/**
 * ALTCHA proof of work, self-hosted. SHA-256 with a few thousand expected attempts solves
 * in well under a second in a person's browser yet makes mass sign-ups cost something.
 * (PBKDF2 at cost 5000 took 9 s here, so it is not used.)
 */
const ALGORITHM = 'SHA-256';
const COST = 1;
/** Three hex digits of prefix: 1 in 4096 keys match, about 40 ms of hashing on average here. */
const KEY_PREFIX_BYTES = '000';
/** A challenge must be solved and submitted within this time. */
export const CAPTCHA_TTL_MS = 10 * 60 * 1000;

export interface Captcha {
  challenge(now: Date): Promise<Challenge>;
  /** True when the payload solves a challenge we signed, is unexpired and was not used before. */
  verify(payload: string, now: Date): Promise<boolean>;
}

export function createCaptcha(db: Tx): Captcha {
  let secret: Promise<string> | undefined;
  const getSecret = () => (secret ??= sharedSecret(db, 'altcha-hmac'));
  return {
    async challenge(now) {
      return createChallenge({
        algorithm: ALGORITHM,
        cost: COST,
        deriveKey,
        keyPrefix: KEY_PREFIX_BYTES,
        // The expiry travels signed in the challenge's data and is checked against the
        // app's clock below, the same clock every other rule reads. `expiresAt` (wall
        // clock) is for the widget, which renews a challenge before it runs out.
        data: { expires: now.getTime() + CAPTCHA_TTL_MS },
        expiresAt: new Date(Date.now() + CAPTCHA_TTL_MS),
        hmacSignatureSecret: await getSecret(),
      });
    },
    async verify(payload, now) {
      if (!notExpired(payload, now)) return false;
      const result = await verify(payload, deriveKey, await getSecret(), undefined, {
        // Replays are refused by the database, so several processes agree.
        async setIfAbsent(id: string) {
          await db.delete(captchaUses).where(lt(captchaUses.expiresAt, now));
          const inserted = await db
            .insert(captchaUses)
            .values({
              challengeId: id.slice(0, 200),
              expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS),
            })
            .onConflictDoNothing()
            .returning();
          return inserted.length > 0;
        },
        async get() {
          return undefined;
        },
        async set() {},
      });
      return result.error === null;
    },
  };
}

/** Reads the signed expiry; the signature itself is checked by `verify`. */
function notExpired(payload: string, now: Date): boolean {
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64').toString()) as {
      challenge?: { parameters?: { data?: { expires?: unknown } } };
    };
    const expires = parsed.challenge?.parameters?.data?.expires;
    return typeof expires === 'number' && now.getTime() < expires;
  } catch {
    return false;
  }
}
