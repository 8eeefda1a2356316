import { createHash, randomBytes, randomInt } from 'node:crypto';
import { TOKEN_BYTES, USER_HASH_ALPHABET, USER_HASH_LENGTH } from '@merit/domain';

/** A new API token key: 256 random bits, URL-safe. */
export function newTokenKey(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Keys are stored only as this digest, so a leaked table holds no usable token. */
export function digestKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A random string from `alphabet`, drawn without modulo bias. */
export function randomString(length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function newUserHash(): string {
  return randomString(USER_HASH_LENGTH, USER_HASH_ALPHABET);
}

/** A password for the generated first admin: 20 characters, about 119 bits. */
export function newPassword(): string {
  return randomString(20, USER_HASH_ALPHABET);
}
