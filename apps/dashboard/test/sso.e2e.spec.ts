import { BrowserContext, Page } from 'playwright-core';
import { startDnsServer, startOidcProvider, TestDnsServer, TestOidcProvider } from '@dl/testing';
import { browserSuite, freePort, screenshotsOf, signUp, World } from './world';

const DOMAIN = 'acme-sso.test';

// Decisions §25 in Chromium: an Owner sets OIDC single sign-on and verifies the email domain by its
// TXT record; a member signs in with "Sign in with SSO" through a real OpenID Connect provider
// (`oidc-provider`) and lands in the dashboard; with enforcement the password form sends them to SSO.
describe('dashboard: single sign-on (Chromium, oidc-provider)', () => {
  let w: World, context: BrowserContext, page: Page;
  let dns: TestDnsServer, idp: TestOidcProvider, apiUrl: string;

  // Before the world starts: the api's address is the OIDC client's redirect URI.
  beforeAll(async () => {
    apiUrl = `http://127.0.0.1:${await freePort()}`;
    dns = await startDnsServer();
    idp = await startOidcProvider(`${apiUrl}/auth/sso/oidc/callback`);
  });
  browserSuite(
    (s) => ({ w, context, page } = s),
    () => ({ API_PUBLIC_URL: apiUrl, SSO_ALLOW_HTTP_HOSTS: idp.hostPort, DNS_SERVERS: dns.address }),
  );
  afterAll(async () => {
    await idp?.close();
    await dns?.close();
  });

  const shots = (p: Page, name: string) => screenshotsOf(p, name);

  it('an Owner sets OIDC and verifies the domain; a member signs in with SSO; enforcement turns the password form to SSO', async () => {
    expect(w.api.url).toBe(apiUrl);
    await signUp(page, 'Acme SSO');
    await page.goto('/app/sso');
    await page.getByLabel('Issuer').fill(idp.issuer);
    await page.getByLabel('Client id').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('Email domains').fill(DOMAIN);
    await page.getByLabel('Role of new members').selectOption('VIEWER');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('sso-domain-status').getByText('Waiting for DNS').waitFor();
    expect(await page.getByTestId('sso-txt-name').textContent()).toBe(`_dl-sso.${DOMAIN}`);
    await shots(page, 'sso-pending');

    dns.setTxt(`_dl-sso.${DOMAIN}`, [(await page.getByTestId('sso-txt-value').textContent())!.trim()]);
    await page.getByRole('button', { name: 'Verify domains' }).click();
    await page.getByTestId('sso-domain-status').getByText('Verified').waitFor();
    await shots(page, 'sso-verified');

    // A member of the domain, in a browser of their own: no account yet.
    const member = await w.context();
    const mp = await member.newPage();
    await mp.goto('/app/login');
    await mp.getByRole('link', { name: 'Sign in with SSO' }).click();
    await mp.getByLabel('Work email').fill('nobody@nowhere.test');
    await mp.getByRole('button', { name: 'Continue with SSO' }).click();
    await mp.getByText('Single sign-on is not set up for nowhere.test').waitFor();
    await mp.getByLabel('Work email').fill(`lee@${DOMAIN}`);
    await shots(mp, 'login-sso');
    await mp.getByRole('button', { name: 'Continue with SSO' }).click();
    // The callback's 302 to /app: the dashboard restores the session from the refresh cookie.
    await mp.waitForURL(/\/app\/?$/);
    await mp.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    const user = await w.env.prisma.user.findUniqueOrThrow({ where: { email: `lee@${DOMAIN}` }, include: { memberships: true } });
    expect(user.memberships.map((m) => m.role)).toEqual(['VIEWER']);
    await member.close();

    // Enforced: a password sign-in of the domain turns to single sign-on.
    await page.getByLabel('Require single sign-on').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Single sign-on saved').waitFor();
    const again = await w.context();
    const ap = await again.newPage();
    await ap.goto('/app/login');
    await ap.getByLabel('Email').fill(`lee@${DOMAIN}`);
    await shots(ap, 'login');
    await ap.getByLabel('Password').fill('any-password-at-all');
    await ap.getByRole('button', { name: 'Sign in', exact: true }).click();
    await ap.getByText('Your organization signs in through its identity provider.').waitFor();
    expect(await ap.getByLabel('Work email').inputValue()).toBe(`lee@${DOMAIN}`);
    await ap.getByRole('button', { name: 'Continue with SSO' }).click();
    await ap.waitForURL(/\/app\/?$/);
    await ap.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await again.close();
  }, 240_000);
});
