import { afterEach, vi } from 'vitest';

/**
 * jsdom has no WebAuthn. These stand in for the browser's side of it at its boundary
 * (`PublicKeyCredential`, `navigator.credentials.create/get`), so a test sees exactly what
 * the page asks of a key and answers for it; @simplewebauthn/browser runs as it is. The real
 * ceremony, with Chromium's virtual authenticator and the server's checks, is the e2e
 * journey's (e2e/journeys/security-keys.e2e.ts).
 */

/** Bytes as WebAuthn's JSON carries them. */
export const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** What was passed as bytes, read back as the text it was made from. */
export const text = (bytes: BufferSource | undefined) =>
  bytes === undefined
    ? undefined
    : Buffer.from(
        ArrayBuffer.isView(bytes)
          ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
          : new Uint8Array(bytes),
      ).toString();

const buffer = (value: string) => new TextEncoder().encode(value).buffer;

/** A new credential as a key makes it (navigator.credentials.create's answer). */
export function fakeRegistration(id: string) {
  return {
    id: base64url(id),
    rawId: buffer(id),
    type: 'public-key',
    authenticatorAttachment: 'cross-platform',
    response: {
      clientDataJSON: buffer('client-data'),
      attestationObject: buffer('attestation'),
      getTransports: () => ['usb'],
    },
    getClientExtensionResults: () => ({}),
  };
}

/** A key's signature over a login's challenge (navigator.credentials.get's answer). */
export function fakeAssertion(id: string) {
  return {
    id: base64url(id),
    rawId: buffer(id),
    type: 'public-key',
    authenticatorAttachment: 'cross-platform',
    response: {
      clientDataJSON: buffer('client-data'),
      authenticatorData: buffer('authenticator-data'),
      signature: buffer('signature'),
      userHandle: null,
    },
    getClientExtensionResults: () => ({}),
  };
}

/** The person closed the browser's prompt, or no key answered in time. */
export const notAllowed = () =>
  new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');

/** The key is one the page asked the browser to refuse (the account's keys already). */
export const alreadyRegistered = () =>
  new DOMException(
    'The user attempted to register an authenticator that contains one of the credentials already registered with the relying party.',
    'InvalidStateError',
  );

type Ceremony = (options: CredentialCreationOptions & CredentialRequestOptions) => Promise<unknown>;

/** Makes this jsdom a browser with WebAuthn, whose keys answer as `create` and `get` say. */
export function stubWebAuthn({
  create = () => Promise.reject(notAllowed()),
  get = () => Promise.reject(notAllowed()),
}: { create?: Ceremony; get?: Ceremony } = {}) {
  const credentials = { create: vi.fn(create), get: vi.fn(get) };
  // What browserSupportsWebAuthn() looks for.
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true });
  return credentials;
}

afterEach(() => {
  // vi.unstubAllGlobals (test/setup.ts) takes PublicKeyCredential away; this, the rest.
  Reflect.deleteProperty(navigator, 'credentials');
});
