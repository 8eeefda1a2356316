/**
 * Security keys (WebAuthn, OWASP ASVS V2.3.2): a second way to take the second step of a
 * password login, beside the authenticator app. A key can be added only while two-step
 * verification is on, so the recovery codes are there for a lost key; turning two-step
 * verification off removes the keys too.
 */

/** The most security keys one account may hold. */
export const MAX_SECURITY_KEYS = 10;
/** The longest name a key may be given. */
export const SECURITY_KEY_NAME_MAX = 64;
/** How long a request to a key (its challenge) may wait for the key's answer. */
export const SECURITY_KEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const securityKeyMessages = {
  needsTwoFactor:
    'Turn on two-step verification with an authenticator app first: its recovery codes let you log in if you lose your security key.',
  tooMany: `You have ${MAX_SECURITY_KEYS} security keys, the most an account may have. Remove one before adding another.`,
  notVerified:
    'Merit could not check your security key’s answer. Try again, with a key added to your account.',
  expired: 'The request to your security key has expired. Try again.',
  notFound: 'There is no such security key on your account.',
  nameRequired: 'Give the key a name, such as “Blue USB key”, so you can tell your keys apart.',
  unsupported:
    'This browser cannot use security keys. Use a code from your authenticator app instead.',
  alreadyAdded:
    'This security key is already on your account. To add another, insert that key instead.',
  cancelled:
    'The security key did not answer, or the request was cancelled. Try again, and touch your key when it blinks.',
} as const;
