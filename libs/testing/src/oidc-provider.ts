import { generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A person the test identity provider knows, by the email typed at sign-in (`login_hint`). */
export interface TestIdpAccount {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: the issuer, for the SSO setting (its host:port in SSO_ALLOW_HTTP_HOSTS). */
  issuer: string;
  /** `127.0.0.1:<port>`. */
  hostPort: string;
  clientId: string;
  clientSecret: string;
  /**
   * Who signs in: by default the account of the `login_hint` email (made on first use, verified);
   * `loginAs` overrides it for the next sign-ins (an email of another domain, an unverified one).
   */
  loginAs(account: TestIdpAccount | null): void;
  /**
   * Forges the ID tokens the token endpoint answers from now on (null: the provider's own again):
   * `altered` changes a claim and keeps the provider's signature; `stranger` signs the same claims
   * with another RSA key under the provider's key id; `issuer`, `audience` and `expired` change
   * `iss`, `aud` or `exp` (an hour ago) and sign with the provider's own key.
   */
  forgeIdTokens(mode: IdTokenForgery | null): void;
  /** Follows the provider's redirects from the authorization URL (login and consent done at once) to the client's callback URL. */
  authorize(authorizationUrl: string): Promise<string>;
  close(): Promise<void>;
}

/** How forgeIdTokens changes the provider's ID tokens. */
export type IdTokenForgery = 'altered' | 'stranger' | 'issuer' | 'audience' | 'expired';

interface MinimalProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string }; params: Record<string, string>; session?: { accountId: string } }>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, options?: object): Promise<void>;
  Grant: new (o: { accountId: string; clientId: string }) => { addOIDCScope(s: string): void; save(): Promise<string> };
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback for tests of single
 * sign-on (decisions §25): one confidential client (client_secret_basic, PKCE required) for
 * `redirectUri`, RS256 ID tokens carrying `email`, `email_verified` and `name`, and a login that
 * needs no form: the interaction signs in the `login_hint` account and grants the scopes.
 */
export async function startOidcProvider(redirectUri: string, options: { clientId?: string; clientSecret?: string } = {}): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'dl-test-client';
  const clientSecret = options.clientSecret ?? 'dl-test-client-secret-0123456789abcdef';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, TestIdpAccount>();
  let override: TestIdpAccount | null = null;
  let forge: IdTokenForgery | null = null;
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

  const { Provider, createMemoryAdapter } = await loadProvider();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
  const provider = new (Provider as new (issuer: string, config: object) => MinimalProvider)(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'], grant_types: ['authorization_code'] }],
    jwks: { keys: [jwk] },
    // What a production setup states instead of the quick-start defaults the provider warns about.
    adapter: createMemoryAdapter(),
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    renderError: (ctx: { type: string; body: string }, out: { error: string; error_description?: string }) => {
      ctx.type = 'text/plain';
      ctx.body = `${out.error}: ${out.error_description ?? ''}`;
    },
    pkce: { required: () => true },
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = [...accounts.values()].find((a) => a.sub === sub) ?? (override?.sub === sub ? override : undefined);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, email: account.email, email_verified: account.email_verified ?? true, name: account.name ?? account.email.split('@')[0] }) };
    },
  });
  const handle = provider.callback();

  const interact = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const hint = (details.params.login_hint ?? 'someone@example.test').toLowerCase();
      let account = override;
      if (!account) {
        account = accounts.get(hint) ?? { sub: `sub-${accounts.size + 1}-${hint}`, email: hint };
        accounts.set(hint, account);
      }
      await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (forge && req.method === 'POST' && req.url?.startsWith('/token')) forgeTokenResponse(res, forge, forge === 'stranger' ? stranger : privateKey);
    if (req.url?.startsWith('/interaction/')) {
      interact(req, res).catch((err: Error) => {
        res.statusCode = 500;
        res.end(err.message);
      });
      return;
    }
    handle(req, res);
  });

  return {
    issuer,
    hostPort: `127.0.0.1:${port}`,
    clientId,
    clientSecret,
    loginAs: (account) => {
      override = account;
    },
    forgeIdTokens: (mode) => {
      forge = mode;
    },
    authorize: async (authorizationUrl) => {
      const jar = new Map<string, string>();
      let url = authorizationUrl;
      for (let hop = 0; hop < 10; hop++) {
        if (!url.startsWith(issuer)) return url;
        const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const cookie of res.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const eq = pair.indexOf('=');
          jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`the identity provider answered ${res.status} at ${url}: ${(await res.text()).slice(0, 300)}`);
        url = new URL(location, url).href;
      }
      throw new Error('too many redirects at the identity provider');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * oidc-provider, loaded on use (every test imports this library, few start a provider), with its
 * memory adapter given explicitly. It warns on import that Node 20 is not its LTS of choice; the
 * repository runs on 20 and these tests prove the provider works there, so that one line is dropped.
 */
async function loadProvider(): Promise<{ Provider: unknown; createMemoryAdapter: () => unknown }> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes('oidc-provider WARNING: Unsupported runtime')) warn(...args);
  };
  try {
    const [{ default: Provider }, { createMemoryAdapter }] = await Promise.all([import('oidc-provider'), import('oidc-provider/lib/adapters/memory_adapter.js')]);
    return { Provider, createMemoryAdapter };
  } finally {
    console.warn = warn;
  }
}

const FORGED_CLAIMS: Record<Exclude<IdTokenForgery, 'stranger'>, (claims: Record<string, unknown>) => Record<string, unknown>> = {
  altered: (c) => ({ ...c, email: `mallory@${String(c.email).split('@')[1]}` }),
  issuer: (c) => ({ ...c, iss: 'https://idp.elsewhere.test' }),
  audience: (c) => ({ ...c, aud: 'another-client' }),
  expired: (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }),
};

/**
 * Rewrites the `id_token` of the token endpoint's JSON answer before it leaves (oidc-provider's Koa
 * ends with the whole body): `altered` keeps the old signature, the others sign with `key`.
 */
function forgeTokenResponse(res: ServerResponse, mode: IdTokenForgery, key: KeyObject): void {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    const body = typeof chunk === 'string' || Buffer.isBuffer(chunk) ? JSON.parse(chunk.toString()) : null;
    if (!body?.id_token) return end(chunk);
    const [header, payload, signature] = (body.id_token as string).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = mode === 'stranger' ? payload : Buffer.from(JSON.stringify(FORGED_CLAIMS[mode](claims))).toString('base64url');
    const signed = `${header}.${forged}`;
    body.id_token = mode === 'altered' ? `${signed}.${signature}` : `${signed}.${sign('sha256', Buffer.from(signed), key).toString('base64url')}`;
    const text = JSON.stringify(body);
    res.setHeader('content-length', Buffer.byteLength(text));
    return end(text);
  }) as typeof res.end;
}
