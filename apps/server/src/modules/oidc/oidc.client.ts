import * as client from 'openid-client';
import type { OidcConfig } from '../../config/config.js';

/**
 * The provider's configuration, discovered on first use and kept for the life of the
 * process (discovery at start-up would make an unreachable provider stop Merit from
 * starting). A failed discovery is retried on the next login.
 */
export function createOidcClient(config: OidcConfig) {
  let discovered: Promise<client.Configuration> | undefined;
  const discover = async () => {
    const configuration = await client.discovery(
      new URL(config.issuer),
      config.clientId,
      undefined,
      client.ClientSecretPost(config.clientSecret),
      // The ID token's signature is verified even though it comes straight from the
      // token endpoint over TLS: non-repudiation checks on (ARCHITECTURE.md).
      {
        execute: config.allowHttp
          ? [client.allowInsecureRequests, client.enableNonRepudiationChecks]
          : [client.enableNonRepudiationChecks],
      },
    );
    return configuration;
  };
  const configuration = () => {
    discovered ??= discover().catch((error: unknown) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  };

  return {
    async authorizationUrl(input: {
      redirectUri: string;
      state: string;
      nonce: string;
      codeVerifier: string;
    }): Promise<URL> {
      const conf = await configuration();
      const supported = conf.serverMetadata().scopes_supported;
      const scopes = supported
        ? config.scopes.filter((s) => s === 'openid' || supported.includes(s))
        : config.scopes;
      return client.buildAuthorizationUrl(conf, {
        redirect_uri: input.redirectUri,
        scope: scopes.join(' '),
        state: input.state,
        nonce: input.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(input.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    /** Exchanges the code and returns the verified ID token's claims (and UserInfo's, when offered). */
    async claims(
      callbackUrl: URL,
      checks: { state: string; nonce: string; codeVerifier: string },
    ): Promise<Record<string, unknown>> {
      const conf = await configuration();
      const tokens = await client.authorizationCodeGrant(conf, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('the provider returned no ID token');
      let extra: Record<string, unknown> = {};
      if (conf.serverMetadata().userinfo_endpoint && tokens.access_token) {
        extra = await client
          .fetchUserInfo(conf, tokens.access_token, idClaims.sub)
          .catch(() => ({}));
      }
      return { ...extra, ...idClaims };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
export const { randomState, randomNonce, randomPKCECodeVerifier } = client;
