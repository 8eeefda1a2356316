import { dictionary } from '@zxcvbn-ts/language-common';

// The 49,000 most common passwords from zxcvbn-ts's list, loaded once on first use.
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}
