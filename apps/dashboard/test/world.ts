import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { createApiApp } from '@dl/apps/api';
import { createRedirectApp } from '@dl/apps/redirect';
import { createWorkerApp } from '@dl/apps/worker';
import { totpCode } from '@dl/auth';
import { createTestEnv, ensureTemplateDatabase, Own, RunningApp, startApp, TestEnv } from '@dl/testing';

const root = join(__dirname, '..', '..', '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The flags that keep Debian's Chromium quiet on a machine without outside network (notes/second-release.md). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

const VISITOR_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface World {
  env: TestEnv;
  api: RunningApp;
  redirect: RunningApp;
  worker: RunningApp;
  /** A local site: link destinations land here, webhooks are delivered here. */
  site: { url: string; received: Received[] };
  dashboardDir: string;
  browser: Browser;
  /** A fresh browser context (its own cookies) at `width`, light or dark. */
  context(opts?: { width?: number; height?: number; dark?: boolean }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Builds the dashboard into a temporary folder (what `npm run build:dashboard` does into dist/). */
export function buildDashboard(): string {
  const out = mkdtempSync(join(tmpdir(), 'dl-dashboard-build-'));
  execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--config', 'apps/dashboard/vite.config.mts', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    // NODE_ENV as `npm run build:dashboard` has it: jest sets it to `test`, and Vite then builds
    // React's development runtime (jsxDEV, owner stacks), three times the CPU of what users get.
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  return out;
}

/** Everything a dashboard user touches: api (+ /app), redirect, worker, a local site, Chromium. */
export async function startWorld(overrides: Record<string, string> = {}): Promise<World> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  const dashboardDir = buildDashboard();
  const received: Received[] = [];
  const site: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Landing</title><h1>Landed</h1>');
    });
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  const redirectPort = await freePort();
  const env = await createTestEnv({
    SHORT_LINK_BASE_URL: `http://127.0.0.1:${redirectPort}`,
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_TIMEOUT_MS: '5000',
    RATE_LIMIT_ENABLED: 'false',
    ...overrides,
  });
  // A loopback API_PUBLIC_URL (an OIDC provider's redirect URI names it) is where the api listens.
  const publicUrl = overrides.API_PUBLIC_URL ? new URL(overrides.API_PUBLIC_URL) : null;
  const apiPort = publicUrl?.hostname === '127.0.0.1' ? Number(publicUrl.port) : 0;
  const api = await startApp((c) => createApiApp(c, { dashboardDir }), env.config, apiPort);
  const redirectApp = await createRedirectApp(env.config);
  await redirectApp.listen(redirectPort, '127.0.0.1');
  const redirect: RunningApp = { app: redirectApp, url: `http://127.0.0.1:${redirectPort}`, close: () => redirectApp.close() };
  const worker = await startApp(createWorkerApp, env.config);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return {
    env,
    api,
    redirect,
    worker,
    site: { url: siteUrl, received },
    dashboardDir,
    browser,
    context: ({ width = 1280, height = 800, dark = false } = {}) =>
      browser.newContext({
        viewport: { width, height },
        colorScheme: dark ? 'dark' : 'light',
        acceptDownloads: true,
        baseURL: api.url,
        // A person's browser: headless Chromium's own user agent says "HeadlessChrome", which the
        // redirect rightly treats as a bot (Open Graph preview, click not counted).
        userAgent: VISITOR_UA,
      }),
    close: async () => {
      await browser.close().catch(() => undefined);
      await Promise.allSettled([api.close(), redirect.close(), worker.close()]);
      await new Promise((resolve) => site.close(resolve));
      await env.teardown();
      rmSync(dashboardDir, { recursive: true, force: true });
    },
  };
}

let users = 0;
/** Signs up a new organization through the dashboard's form; answers the email and password. */
export async function signUp(page: Page, organizationName = 'Acme Marketing'): Promise<{ email: string; password: string }> {
  const email = `e2e${++users}-${Date.now()}@example.test`;
  const password = 'a-long-password-1';
  await page.goto('/app/signup');
  await page.getByLabel('Your name').fill('Mia Marketer');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Organization').fill(organizationName);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/app/links');
  return { email, password };
}

/** Opens a folded section of the link form (its essentials are always shown). */
export async function openSection(page: Page, legend: string): Promise<void> {
  const summary = page.locator('summary', { hasText: legend });
  if ((await summary.locator('xpath=..').getAttribute('open')) === null) await summary.click();
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/app/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/app/links');
}

/**
 * Turns two-factor authentication on from the Account page: the QR code, a code of its secret,
 * the ten recovery codes shown once and put away. `look` runs at the set-up and at the codes
 * (screenshots). Answers the secret and when its enabling code was made.
 */
export async function enableTwoFactor(page: Page, look: (what: 'setup' | 'recovery-codes') => Promise<void> = async () => undefined): Promise<{ secret: string; enabledAt: number }> {
  await page.goto('/app/account');
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await page.getByAltText('QR code of your two-factor secret').waitFor();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await look('setup');
  const enabledAt = Date.now();
  await page.getByLabel('Code').fill(totpCode(secret, enabledAt));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('region', { name: 'Recovery codes' });
  await codes.waitFor();
  expect(await codes.locator('li').count()).toBe(10);
  await look('recovery-codes');
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByText('Signing in asks for a code').waitFor();
  expect(await codes.count()).toBe(0);
  return { secret, enabledAt };
}

/**
 * Signs out with the nav's button, then in with the password and a code: the step of the enabling
 * code is spent, so a later step's (the next one, or now's on a slow run). `look` runs at the code form.
 */
export async function signOutAndInWithCode(
  page: Page,
  account: { email: string; password: string },
  twoFactor: { secret: string; enabledAt: number },
  look: () => Promise<void> = async () => undefined,
): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL('**/app/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
  await look();
  await page.getByLabel('Code').fill(totpCode(twoFactor.secret, Math.max(Date.now(), twoFactor.enabledAt + 30_000)));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/app/links');
}

/**
 * Where the browser tests' screenshots go, to be looked at: DL_SHOTS_DIR. Unset (CI, `npm test`),
 * nobody looks at them and none are taken; the tests' assertions run either way.
 */
export const SHOTS_DIR = process.env.DL_SHOTS_DIR;

/** A test that only takes screenshots: run with DL_SHOTS_DIR set, skipped without. */
export const itShoots = SHOTS_DIR ? it : it.skip;

/** A screenshot of the page as it is, `<DL_SHOTS_DIR>/<name>.png`; nothing without DL_SHOTS_DIR. */
export async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage });
}

/** Screenshots of the page as it is, in light and dark at 1280 and 390 px (`<name>-<theme>-<width>`, see shoot), then back to light at 1280. */
export async function screenshotsOf(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  for (const dark of [false, true]) {
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      // From the top: a page scrolled by the flow paints its sticky header mid-page in a full-page shot.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(200);
      await shoot(page, `${name}-${dark ? 'dark' : 'light'}-${width}`, true);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

export async function eventually<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 20_000, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** For a useSuite setup: a World, and one browser context and page for the whole file (tests build on each other), closed with the suite. */
export async function openPage(own: Own, overrides: Record<string, string> = {}): Promise<{ w: World; context: BrowserContext; page: Page }> {
  const w = own(await startWorld(overrides));
  const context = own(await w.context());
  return { w, context, page: await context.newPage() };
}

/** The user signed up as `email` and the organization the signup made. */
export async function accountOf(w: World, email: string): Promise<{ userId: string; organizationId: string }> {
  const user = await w.env.prisma.user.findFirstOrThrow({ where: { email }, select: { id: true } });
  const { organizationId } = await w.env.prisma.membership.findFirstOrThrow({ where: { userId: user.id }, select: { organizationId: true } });
  return { userId: user.id, organizationId };
}

/** Signs up through the form (see signUp) and answers the account with the new organization's id. */
export async function signUpOwner(w: World, page: Page, organizationName: string): Promise<{ email: string; password: string; organizationId: string }> {
  const owner = await signUp(page, organizationName);
  return { ...owner, organizationId: (await accountOf(w, owner.email)).organizationId };
}

/**
 * A browser suite's hooks: one World for the file (started with `overrides`, a function when they
 * are made in the hook), and a fresh context and page for each test. `set` receives them: the World
 * alone after it starts, then the World with each test's context and page.
 */
export function browserSuite(
  set: (s: { w: World; context: BrowserContext; page: Page }) => void,
  overrides: Record<string, string> | (() => Record<string, string>) = {},
): void {
  let w: World | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    w = await startWorld(typeof overrides === 'function' ? overrides() : overrides);
    set({ w, context: undefined as unknown as BrowserContext, page: undefined as unknown as Page });
  }, 120_000);
  afterAll(() => w?.close(), 60_000);
  beforeEach(async () => {
    context = await w!.context();
    set({ w: w!, context, page: await context.newPage() });
  });
  afterEach(() => context?.close());
}

/** One theme and width of a screenshot script: a page signed in as the owner, and each shot's file. */
export interface Shot {
  page: Page;
  dark: boolean;
  width: number;
  name: (what: string) => string;
}

/**
 * A screenshot script (`node tools/scripts/run.js apps/dashboard/test/<script>.ts`): a fresh World,
 * an organization signed up through the form and seeded by `prepare` (with that page), then `shoot`
 * once per theme (light, dark) and width (1280, 390 px), the files in `out`. Exits 0, or 1 with the error.
 */
export function screenshotScript<T>(
  label: string,
  out: string,
  prepare: (w: World, page: Page, account: { email: string; password: string }) => Promise<T>,
  shoot: (shot: Shot, prepared: T) => Promise<void>,
): void {
  const run = async () => {
    process.env.TEST_DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';
    await ensureTemplateDatabase();
    const w = await startWorld();
    try {
      mkdirSync(out, { recursive: true });
      const setup = await w.context();
      const page = await setup.newPage();
      const account = await signUp(page, 'Northwind Outdoor');
      const prepared = await prepare(w, page, account);
      await setup.close();
      for (const dark of [false, true]) {
        for (const width of [1280, 390]) {
          const ctx = await w.context({ width, height: width > 600 ? 900 : 844, dark });
          const p = await ctx.newPage();
          await signIn(p, account.email, account.password);
          await shoot({ page: p, dark, width, name: (what) => join(out, `${what}-${dark ? 'dark' : 'light'}-${width}.png`) }, prepared);
          await ctx.close();
          process.stderr.write(`${label}: ${dark ? 'dark' : 'light'} ${width} px done\n`);
        }
      }
    } finally {
      await w.close();
    }
  };
  run().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err instanceof Error ? err.stack : err);
      process.exit(1);
    },
  );
}
