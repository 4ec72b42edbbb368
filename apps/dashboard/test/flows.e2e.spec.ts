import { readFileSync } from 'node:fs';
import { BrowserContext, Page } from 'playwright-core';
import { browserSuite, eventually, openSection, signIn, signUp, World } from './world';

// What a marketer does in the dashboard, in Chromium, against the real api, redirect and
// worker apps. Each test signs up its own organization.
describe('dashboard flows (Chromium)', () => {
  let w: World, context: BrowserContext, page: Page;
  browserSuite((s) => ({ w, context, page } = s));

  it('signs up, creates a template, a project and a link with UTM, follows it, sees the click in the chart and downloads the QR', async () => {
    await signUp(page);
    await page.getByRole('heading', { name: 'No links yet' }).waitFor();

    // A template with default UTM parameters.
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('heading', { name: 'New template' }).waitFor();
    await page.getByLabel('Name').fill('Newsletter');
    await page.getByLabel('Slug').fill('newsletter');
    await page.getByLabel('utm_source').fill('newsletter');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByText('Template “Newsletter” created').waitFor();
    await page.getByRole('cell', { name: 'newsletter', exact: true }).waitFor();

    // A project.
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { name: 'New project' }).waitFor();
    await page.getByLabel('Name').fill('Spring campaign');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: 'Spring campaign' }).waitFor();

    // A link: an error shown next to its field first, then the UTM builder and its preview.
    await page.getByRole('link', { name: 'Links' }).first().click();
    await page.getByRole('link', { name: 'New link' }).click();
    await page.getByRole('heading', { name: 'New link' }).waitFor();
    await page.getByLabel('Destination URL').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByText('Must be a valid URL').waitFor();
    expect(await page.getByLabel('Destination URL').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Destination URL').fill(`${w.site.url}/landing`);
    await page.getByLabel('Title', { exact: true }).fill('Spring sale');
    await page.getByLabel('Template').selectOption({ label: 'Newsletter' });
    await openSection(page, 'Project and description');
    await page.getByLabel('Project').selectOption({ label: 'Spring campaign' });
    await openSection(page, 'UTM builder');
    await page.getByLabel('utm_source').fill('newsletter');
    await page.getByLabel('utm_medium').fill('email');
    await page.getByLabel('utm_campaign').fill('spring_sale');
    await openSection(page, 'Social preview (Open Graph)');
    await page.getByLabel('OG title').fill('Spring sale: 30% off');
    await expect(page.getByTestId('utm-preview').textContent()).resolves.toBe(
      `${w.site.url}/landing?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale`,
    );
    await page.getByRole('img', { name: 'Social preview' }).getByText('Spring sale: 30% off').waitFor();
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.waitForURL(/\/app\/links\/[0-9a-f-]{36}$/);
    await page.getByText('Link created').waitFor();
    const shortUrl = (await page.getByTestId('short-url').textContent()) as string;
    expect(shortUrl).toMatch(new RegExp(`^${w.redirect.url}/[A-Za-z0-9]{7}$`));
    expect(await page.getByTestId('total-clicks').textContent()).toBe('0');

    // A visitor opens the short link in another tab and lands with the UTM parameters.
    const visitor = await context.newPage();
    await visitor.goto(shortUrl);
    expect(visitor.url()).toBe(`${w.site.url}/landing?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale`);
    await visitor.close();

    // The worker stores the click; the link page shows it in the chart's total and the click list.
    await eventually(async () => {
      await page.reload();
      return (await page.getByTestId('total-clicks').textContent({ timeout: 5000 })) === '1';
    });
    await page.getByTestId('click-list').getByRole('row').nth(1).waitFor();
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(/days=7/);
    await eventually(async () => (await page.getByTestId('total-clicks').textContent()) === '1');

    // The QR code: preview, then an SVG download with options.
    await page.getByRole('img', { name: /QR code for/ }).waitFor();
    await page.getByLabel('Format').selectOption('svg');
    await page.getByLabel('Error correction').selectOption('H');
    await eventually(async () => ((await page.getByRole('link', { name: 'Download SVG' }).getAttribute('href')) ?? '').startsWith('blob:'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download SVG' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^[A-Za-z0-9]{7}\.svg$/);
    const svg = readFileSync((await download.path()) as string, 'utf8');
    expect(svg).toContain('<svg');

    // The links list shows it, with its click.
    await page.getByRole('link', { name: 'Links' }).first().click();
    await page.getByRole('link', { name: 'Spring sale' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search links' }).fill('nothing-like-this');
    await page.getByRole('heading', { name: 'No links match' }).waitFor();
  }, 120_000);

  it('keeps the session across a reload (refresh cookie) and signs out', async () => {
    await signUp(page, 'Reloaders');
    await page.goto('/app/usage');
    await page.locator('#main').getByText('Links', { exact: true }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    expect(page.url()).toContain('/app/usage');
    // The token is in memory only: nothing in storage, and the refresh cookie is HttpOnly.
    const storage = await page.evaluate("({ local: Object.keys(localStorage).filter((k) => k !== 'dl-theme'), session: sessionStorage.length, cookie: document.cookie })");
    expect(storage).toEqual({ local: [], session: 0, cookie: '' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/app/login');
    await page.goto('/app/links');
    await page.waitForURL('**/app/login');
  }, 60_000);

  it('creates a webhook (secret shown once), sends a test and sees the delivery', async () => {
    await signUp(page, 'Hooked');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'New webhook' }).waitFor();
    await page.getByRole('heading', { name: 'No webhooks' }).waitFor();
    await page.getByLabel('Endpoint URL').fill(`${w.site.url}/hooks`);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Webhook created').waitFor();
    expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test event sent').waitFor();
    await eventually(async () => {
      const status = await page.getByTestId('deliveries').getByText('success').count();
      return status > 0;
    }, 30_000);
    expect(w.site.received.some((r) => r.url === '/hooks' && r.method === 'POST')).toBe(true);
  }, 90_000);

  it('invites a member who accepts the invitation, signs in and has the role given', async () => {
    await signUp(page, 'Team');
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Add a member' }).waitFor();
    const email = `member-${Date.now()}@example.test`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('VIEWER');
    await page.getByRole('button', { name: 'Add or invite' }).click();
    await page.getByText(`Invitation sent to ${email}`).waitFor();
    const token = (await page.getByTestId('secret').textContent()) as string;
    expect(token).toMatch(/^dli_/);
    await page.getByTestId('invitations').getByRole('cell', { name: email, exact: true }).waitFor();

    const other = await w.context();
    const theirs = await other.newPage();
    await theirs.goto(`/app/accept-invite?token=${encodeURIComponent(token)}`);
    await theirs.getByLabel('Your name').fill('Vic Viewer');
    await theirs.getByLabel('Password').fill('short');
    await theirs.getByRole('button', { name: 'Join the organization' }).click();
    await theirs.getByText('Must be at least 10 characters').waitFor();
    await theirs.getByLabel('Password').fill('viewer-password-1');
    await theirs.getByRole('button', { name: 'Join the organization' }).click();
    await theirs.waitForURL('**/app/links');
    await theirs.getByText('viewer', { exact: true }).waitFor();
    // Signing out and in again works with the password they chose.
    await theirs.getByRole('button', { name: 'Sign out' }).click();
    await signIn(theirs, email, 'viewer-password-1');
    // A viewer cannot create links: the API's refusal is shown in words.
    await theirs.goto('/app/links/new');
    await theirs.getByLabel('Destination URL').fill(`${w.site.url}/x`);
    await theirs.getByRole('button', { name: 'Create link' }).click();
    await theirs.getByText('Your role does not allow this action').waitFor();
    await other.close();

    await page.reload();
    await page.getByRole('cell', { name: email, exact: true }).waitFor();
  }, 90_000);

  it('reads the monthly report of the current month', async () => {
    await signUp(page, 'Reporters');
    await page.getByRole('link', { name: 'Monthly reports' }).click();
    await page.getByRole('navigation', { name: 'Months' }).getByRole('link').first().waitFor();
    await page.getByRole('heading', { name: 'Clicks per day' }).waitFor();
    await page.getByRole('heading', { name: 'Top links' }).waitFor();
    await page.getByText('Clicks', { exact: true }).first().waitFor();
    // FREE: the conversions section says where leads and sales come from instead of showing zeros.
    const conversions = page.getByRole('region', { name: 'Conversions' });
    await conversions.getByText('Leads and sales attributed to your links are tracked on paid plans.').waitFor();
    await conversions.getByRole('link', { name: 'See the plans' }).waitFor();
  }, 60_000);
});
