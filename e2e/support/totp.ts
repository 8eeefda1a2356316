import { createHmac } from 'node:crypto';

/**
 * An authenticator app, written here from RFC 4226/6238 and not taken from the server, so
 * the journey shows that a real app's codes work: base32 key, HMAC-SHA-1, 30 s, 6 digits.
 */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/\s/g, '').toUpperCase()) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

function codeAt(key: Buffer, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * The app's next code: the current one, unless it was used already (the server takes
 * each once), then the next step's, which the server's ±1 step window accepts.
 */
export function appFor(secret: string) {
  const key = base32Decode(secret);
  let lastStep = -1;
  const now = () => Math.floor(Date.now() / 30_000);
  return {
    next: () => {
      const step = Math.max(now(), lastStep + 1);
      lastStep = step;
      return codeAt(key, step);
    },
    /** A code of five minutes ago: the right shape, long expired. */
    stale: () => codeAt(key, now() - 10),
  };
}
