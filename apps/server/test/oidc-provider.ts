import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SignJWT,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
} from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider) on loopback, with AAF-like claims, for the
 * federated login tests. A small front server passes everything to the provider and can
 * tamper with the token endpoint's ID token, to prove Merit refuses a bad signature or a
 * wrong audience.
 */
export interface TestAccount {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  schac_home_organization?: string;
  eduperson_scoped_affiliation?: string[];
}

/** `resign` re-signs the ID token unchanged with the right key: proof the tampering path itself works. */
export type Tamper = 'none' | 'resign' | 'bad-signature' | 'wrong-audience';

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the provider logs in on the next authorization request (no login form). */
  loginAs(account: TestAccount): void;
  tamper(mode: Tamper): void;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startTestProvider(redirectUris: string[]): Promise<TestProvider> {
  const front = createServer();
  const frontPort = await listen(front);
  const issuer = `http://127.0.0.1:${frontPort}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const { privateKey: strangerKey } = await generateKeyPair('RS256');

  const accounts = new Map<string, TestAccount>();
  let current: TestAccount | undefined;
  let mode: Tamper = 'none';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'merit',
        client_secret: 'merit-test-secret',
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    scopes: [
      'openid',
      'profile',
      'email',
      'eduperson_scoped_affiliation',
      'schac_home_organization',
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
      eduperson_scoped_affiliation: ['eduperson_scoped_affiliation'],
      schac_home_organization: ['schac_home_organization'],
    },
    // Put every released claim in the ID token, as AAF does.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          ...account,
          name: `${account.given_name} ${account.family_name}`,
          email_verified: true,
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
  });
  const providerCallback = provider.callback();

  /** Logs `current` in and grants everything asked for, without a form. */
  async function interact(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!current) throw new Error('call loginAs() before starting a login');
      accounts.set(current.sub, current);
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: current.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new provider.Grant({
      accountId: details.session!.accountId,
      clientId: details.params.client_id as string,
    });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  }

  async function tamperedToken(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    const upstream = await fetch(`http://127.0.0.1:${innerPort}${req.url}`, {
      method: 'POST',
      headers: {
        'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded',
        'x-forwarded-host': `127.0.0.1:${frontPort}`,
        'x-forwarded-proto': 'http',
      },
      body,
    });
    const json = (await upstream.json()) as Record<string, unknown>;
    if (typeof json.id_token === 'string') {
      const claims = decodeJwt(json.id_token);
      const header = decodeProtectedHeader(json.id_token);
      if (mode === 'resign' || mode === 'wrong-audience') {
        json.id_token = await new SignJWT(
          mode === 'resign' ? claims : { ...claims, aud: 'someone-else' },
        )
          .setProtectedHeader(header as { alg: string })
          .sign(await importJWK(jwk, 'RS256'));
      } else if (mode === 'bad-signature') {
        json.id_token = await new SignJWT(claims)
          .setProtectedHeader(header as { alg: string })
          .sign(strangerKey);
      }
    }
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  }

  const inner = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(req, res).catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
      return;
    }
    providerCallback(req, res);
  });
  const innerPort = await listen(inner);

  // The front server is the issuer: it passes everything through, except that it can
  // rewrite the token endpoint's answer.
  front.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (mode !== 'none' && req.method === 'POST' && req.url?.startsWith('/token')) {
      tamperedToken(req, res).catch(() => {
        res.writeHead(500);
        res.end();
      });
      return;
    }
    void (async () => {
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (v !== undefined && k !== 'host' && k !== 'connection')
          headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      }
      // fetch sets Host from the URL; oidc-provider (proxy mode) builds its URLs from these.
      headers.set('x-forwarded-host', `127.0.0.1:${frontPort}`);
      headers.set('x-forwarded-proto', 'http');
      const upstream = await fetch(`http://127.0.0.1:${innerPort}${req.url}`, {
        method: req.method,
        headers,
        body,
        redirect: 'manual',
      });
      const out: Record<string, string | string[]> = {};
      upstream.headers.forEach((value, key) => {
        if (key !== 'content-encoding' && key !== 'content-length' && key !== 'transfer-encoding')
          out[key] = value;
      });
      const cookies = upstream.headers.getSetCookie();
      if (cookies.length > 0) out['set-cookie'] = cookies;
      res.writeHead(upstream.status, out);
      res.end(Buffer.from(await upstream.arrayBuffer()));
    })().catch(() => {
      res.writeHead(502);
      res.end();
    });
  });
  // oidc-provider must see the issuer's host; requests reach it through the front server.
  provider.proxy = true;

  return {
    issuer,
    clientId: 'merit',
    clientSecret: 'merit-test-secret',
    loginAs(account) {
      current = account;
    },
    tamper(next) {
      mode = next;
    },
    async close() {
      front.closeAllConnections();
      inner.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => front.close(resolve)),
        new Promise((resolve) => inner.close(resolve)),
      ]);
    },
  };
}
