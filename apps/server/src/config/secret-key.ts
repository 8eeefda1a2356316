import { hkdfSync } from 'node:crypto';
import { inspect } from 'node:util';

/**
 * SECRET_KEY, the server's own secret, as a setting (platform/security/server-key.ts
 * derives the keys from it and keeps DATA_DIR/secret.key when it is unset).
 */

/** 256 bits: HKDF-SHA-256 gets no stronger from more, and a shorter secret would weaken it. */
export const MIN_SECRET_KEY_BYTES = 32;

/** The secret's bytes, which neither JSON nor util.inspect (so no log line) can show. */
export class ServerSecret {
  readonly #bytes: Buffer;

  constructor(bytes: Buffer) {
    if (bytes.length < MIN_SECRET_KEY_BYTES) {
      throw new Error(`A server secret must have at least ${MIN_SECRET_KEY_BYTES} bytes.`);
    }
    this.#bytes = Buffer.from(bytes);
  }

  /** A 256-bit key for one use, named by `label`: HKDF-SHA-256 (RFC 5869). */
  derive(label: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#bytes, Buffer.alloc(0), label, 32));
  }

  toJSON(): string {
    return '[server secret]';
  }

  [inspect.custom](): string {
    return 'ServerSecret [not shown]';
  }
}

/**
 * The secret written as hex (preferred: `openssl rand -hex 32`) or base64, or why not:
 * the reason never repeats the value, which is a secret even when it is a wrong one.
 */
export function parseSecretKey(text: string): ServerSecret | { problem: string } {
  const value = text.trim();
  let bytes: Buffer;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(value)) bytes = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) bytes = Buffer.from(value, 'base64');
  else return { problem: 'it is neither hex nor base64' };
  if (bytes.length < MIN_SECRET_KEY_BYTES) {
    return { problem: `it holds ${bytes.length} bytes` };
  }
  return new ServerSecret(bytes);
}

/** What the server asks of SECRET_KEY, and of DATA_DIR/secret.key. */
export const SECRET_KEY_RULE = `must be at least ${MIN_SECRET_KEY_BYTES} random bytes written as hex or base64 (make one with: openssl rand -hex ${MIN_SECRET_KEY_BYTES})`;
