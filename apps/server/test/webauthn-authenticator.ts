import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A security key in software, for tests: what a FIDO2 key and the browser together answer
 * to WebAuthn's navigator.credentials.create and .get, as JSON (the shape
 * @simplewebauthn/browser hands the server). One ES256 (P-256) credential per
 * authenticator; attestation "none"; user presence always, user verification never, as a
 * plain USB key. Each answer can be bent (`Bend`) to play a key or browser that lies.
 */

/** The options JSON a server sends; only the fields an authenticator reads. */
export interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
}
export interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string; type: string; transports?: string[] }[];
}

/** Ways to make an answer wrong. */
export interface Bend {
  /** The origin the "browser" reports (another site's). */
  origin?: string;
  /** The RP ID the "key" signs for. */
  rpId?: string;
  /** A challenge other than the one in the options. */
  challenge?: string;
  /** The signature counter to report (a copied key's, say); the key's own is not moved. */
  counter?: number;
  /** `webauthn.create` where `webauthn.get` belongs, or the other way. */
  type?: string;
  /** Flip a bit of the signature. */
  badSignature?: boolean;
}

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const uint32 = (n: number) => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, n);
  return bytes;
};
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

const FLAG_USER_PRESENT = 0x01;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

export class SoftwareAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(32));
  /** What the key counts up at each use. */
  counter = 0;
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Uint8Array;
  /** The user handle the key was given when its credential was made. */
  userHandle: string | undefined;

  /**
   * @param origin The origin of the site the "browser" is on (PUBLIC_URL's).
   * @param counts Whether the key has a signature counter (many passkeys report 0 always).
   */
  constructor(
    readonly origin: string,
    readonly counts = true,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y.
    this.cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private clientData(type: string, challenge: string, bend: Bend): Uint8Array {
    return new TextEncoder().encode(
      JSON.stringify({
        type: bend.type ?? type,
        challenge: bend.challenge ?? challenge,
        origin: bend.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  private nextCounter(bend: Bend): number {
    if (bend.counter !== undefined) return bend.counter;
    if (this.counts) this.counter += 1;
    return this.counter;
  }

  /** The answer to navigator.credentials.create(options): a RegistrationResponseJSON. */
  register(options: CreationOptions, bend: Bend = {}) {
    const rpId = bend.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    this.userHandle = options.user.id;
    const authData = concat(
      sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([FLAG_USER_PRESENT | FLAG_ATTESTED_CREDENTIAL]),
      uint32(this.nextCounter(bend)),
      new Uint8Array(16), // AAGUID: none given, as with attestation "none"
      new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 0xff]),
      this.credentialId,
      this.cosePublicKey,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, bend)),
        attestationObject: b64url(attestationObject),
        transports: ['usb'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform' as const,
    };
  }

  /** The answer to navigator.credentials.get(options): an AuthenticationResponseJSON. */
  assert(options: RequestOptions, bend: Bend = {}) {
    const rpId = bend.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    const authData = concat(
      sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([FLAG_USER_PRESENT]),
      uint32(this.nextCounter(bend)),
    );
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, bend);
    // ES256: ECDSA over authenticatorData || SHA-256(clientDataJSON), DER-encoded.
    const signature = new Uint8Array(
      sign('sha256', concat(authData, sha256(clientDataJSON)), this.privateKey),
    );
    if (bend.badSignature) signature[signature.length - 1]! ^= 0x01;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform' as const,
    };
  }
}
