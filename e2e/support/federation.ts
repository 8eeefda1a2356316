import { createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT, findFreePort, startServer } from '../../scripts/lib/server.mjs';

/** Who the provider logs in: the claims of apps/server/test/oidc-provider.ts's TestAccount. */
export interface InstitutionalAccount {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  schac_home_organization?: string;
  eduperson_scoped_affiliation?: string[];
}

/** The part of the test provider's API that the journeys use. */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the provider logs in on the next authorization request, without a form. */
  loginAs(account: InstitutionalAccount): void;
  /** 'wrong-audience' re-signs the ID token for another client; 'none' stops tampering. */
  tamper(mode: 'none' | 'wrong-audience' | 'bad-signature' | 'resign'): void;
  close(): Promise<void>;
}

/**
 * The provider is the API tests' own (@merit/server/testing/oidc), imported at run time
 * and typed above: a static import would make `tsc -p e2e` check its source with the
 * DOM library, under which its Node fetch calls with Buffer bodies do not type-check.
 */
const PROVIDER_MODULE = '@merit/server/testing/oidc';

async function startTestProvider(redirectUris: string[]): Promise<TestProvider> {
  const loaded = (await import(PROVIDER_MODULE)) as {
    startTestProvider(redirectUris: string[]): Promise<TestProvider>;
  };
  return loaded.startTestProvider(redirectUris);
}

/** A Merit server of its own with federated login through a real OpenID provider. */
export interface FederatedMerit {
  url: string;
  dataDir: string;
  /** The provider: loginAs() picks who logs in next, tamper() breaks its ID tokens. */
  provider: TestProvider;
  /** The name the login page gives the provider. */
  displayName: string;
  logFile: string;
  stop(): Promise<void>;
}

export const FEDERATION_NAME = 'Test Federation';

/**
 * Starts the test OpenID provider (apps/server/test/oidc-provider.ts, the one the
 * API tests use) and a Merit server that trusts it. The port comes first: the
 * provider must know Merit's callback address before Merit starts.
 */
export async function startFederatedMerit(): Promise<FederatedMerit> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const provider = await startTestProvider([`${url}/api/v1/auth/oidc/callback/`]);

  const logFile = resolve(REPO_ROOT, 'test-results', 'e2e-federated-server.log');
  mkdirSync(resolve(logFile, '..'), { recursive: true });
  const log = createWriteStream(logFile);
  try {
    const server = await startServer({
      port,
      env: {
        PUBLIC_URL: url,
        SMTP_URL: undefined,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_ALLOW_HTTP: 'true',
        OIDC_DISPLAY_NAME: FEDERATION_NAME,
        OIDC_SCOPES: undefined,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      },
      onLog: (line) => log.write(`${line}\n`),
    });
    return {
      url: server.url,
      dataDir: server.dataDir,
      provider,
      displayName: FEDERATION_NAME,
      logFile,
      async stop() {
        await server.stop();
        await provider.close();
        await new Promise((done) => log.end(done));
      },
    };
  } catch (error) {
    await provider.close();
    await new Promise((done) => log.end(done));
    throw error;
  }
}
