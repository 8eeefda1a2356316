import type { SecurityKeyOptions } from '@merit/contract';
import { securityKeyMessages } from '@merit/domain';
import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/**
 * The key did not answer: the person cancelled the browser's prompt, took too long, or the
 * browser refused. The browser says which only in words meant for developers (and keeps
 * most reasons to itself, so a page cannot probe the keys plugged in), so the person gets
 * one message that tells them what to do. The one reason it does tell, when adding a key,
 * is a key the account has already (the server lists the account's keys for the browser
 * to refuse): that gets its own message.
 */
export class SecurityKeyCeremonyError extends Error {
  constructor(cause: unknown) {
    super(
      cause instanceof WebAuthnError && cause.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'
        ? securityKeyMessages.alreadyAdded
        : securityKeyMessages.cancelled,
      { cause },
    );
    this.name = 'SecurityKeyCeremonyError';
  }
}

async function ask<T>(ceremony: () => Promise<T>): Promise<T> {
  try {
    return await ceremony();
  } catch (error) {
    // Kept for a developer; the page shows the message above.
    console.warn('The security key ceremony failed:', error);
    throw new SecurityKeyCeremonyError(error);
  }
}

// The contract checks only the options' challenge: the rest is WebAuthn's own JSON, made by
// @simplewebauthn/server, which the browser checks as it reads it.

/** Asks the browser to make a new credential on a key (adding it to the account). */
export function askKeyToRegister({
  options,
}: SecurityKeyOptions): Promise<RegistrationResponseJSON> {
  return ask(() =>
    startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    }),
  );
}

/** Asks the browser for one of the account's keys to sign the login's challenge. */
export function askKeyToSignIn({
  options,
}: SecurityKeyOptions): Promise<AuthenticationResponseJSON> {
  return ask(() =>
    startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    }),
  );
}
