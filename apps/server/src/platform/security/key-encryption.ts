import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * How a stored key was encrypted: `v2` under the key derived from the server's secret
 * (SECRET_KEY or DATA_DIR/secret.key, outside the database: a copy of the database alone
 * gives no one the keys, ASVS V2.8.2); `v1` under the `two-factor-key` row of app_secrets,
 * as before the server secret, until modules/auth/two-factor.service.ts moves it to v2.
 */
export const SERVER_KEY_FORMAT = 'v2';
export const DATABASE_KEY_FORMAT = 'v1';

/** Whether a stored key is still under the database's own key (v1). */
export const underDatabaseKey = (stored: string): boolean =>
  stored.startsWith(`${DATABASE_KEY_FORMAT}.`);

/**
 * The key at rest: AES-256-GCM as `<format>.<iv>.<tag>.<ciphertext>` in base64url, under the
 * server key (`v2`) unless `format` says otherwise (tests make the old kind).
 */
export function encryptSecret(
  key: Buffer,
  secret: Uint8Array,
  format: string = SERVER_KEY_FORMAT,
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [format, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Decrypts a stored key with the key its format names (the caller chooses which). */
export function decryptSecret(key: Buffer, stored: string): Buffer {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (
    (version !== SERVER_KEY_FORMAT && version !== DATABASE_KEY_FORMAT) ||
    !iv ||
    !tag ||
    ciphertext === undefined
  ) {
    throw new Error('Unknown format of a stored two-step verification key');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
}
