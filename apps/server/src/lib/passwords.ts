import { hash, verify } from '@node-rs/argon2';

// Argon2id (the library's default algorithm) at OWASP's baseline of 19 MiB, 2 passes and
// 1 lane: slow enough to make guessing expensive without making login feel slow.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

// Verified against when the user does not exist, so a wrong username costs the same
// time as a wrong password and timing does not reveal which usernames exist.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    dummyHash ??= hashPassword('not a real password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
